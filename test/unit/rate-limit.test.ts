import { describe, expect, it } from 'vitest';
import { AppError } from '../../shared/errors.ts';
import type { Limit } from '../../shared/rate-limit/limits.ts';
import { rateLogFrom, recordHit, withState } from '../../shared/rate-limit/rate-limit.ts';
import { cancellationItems, conditionFailureItem } from '../../shared/store/errors.ts';

const limit: Limit = { bucket: 'test', max: 3, windowSeconds: 600 };
const log = (hits: number[], version = 1) => ({ ...rateLogFrom(limit, 's', undefined), hits, version });

function refusal(run: () => unknown): AppError {
  try {
    run();
  } catch (error) {
    if (error instanceof AppError) return error;
    throw error;
  }
  throw new Error('not refused');
}

describe('sliding-log rate limits', () => {
  it('allow max hits within any window and refuse the next, whatever the calendar', () => {
    const update = recordHit('t', log([1_000, 2_000]), 3_000);
    expect(update.ExpressionAttributeValues[':hits']).toEqual([1_000, 2_000, 3_000]);
    const refused = refusal(() => recordHit('t', log([1_000, 2_000, 3_000]), 4_000));
    expect(refused.code).toBe('RATE_LIMITED');
    // The oldest of the three leaves the window at 601 000 ms: 597 s from 4 000 ms.
    expect(refused.headers?.['retry-after']).toBe('597');
  });

  it('forget hits older than the window and keep only the last max', () => {
    const update = recordHit('t', log([1_000, 2_000, 3_000]), 601_001);
    expect(update.ExpressionAttributeValues[':hits']).toEqual([2_000, 3_000, 601_001]);
  });

  it('guard the write with the version read, so concurrent writers cannot both pass', () => {
    expect(recordHit('t', log([], 0), 1).ConditionExpression).toBe('attribute_not_exists(version)');
    const update = recordHit('t', log([5], 7), 10);
    expect(update.ConditionExpression).toBe('version = :version');
    expect(update.ExpressionAttributeValues).toMatchObject({ ':version': 7, ':next': 8 });
  });

  it('read the log from a marshalled item, as a failed condition returns it', () => {
    const marshalled = { version: { N: '4' }, hits: { L: [{ N: '10' }, { N: '20' }] } };
    const failure = Object.assign(new Error('lost'), {
      name: 'ConditionalCheckFailedException',
      Item: marshalled,
    });
    expect(rateLogFrom(limit, 's', conditionFailureItem(failure))).toMatchObject({
      version: 4,
      hits: [10, 20],
    });
    expect(withState(log([1], 1), conditionFailureItem(failure))).toMatchObject({
      version: 4,
      hits: [10, 20],
    });
  });

  it('read a cancelled transaction item by item, undefined where nothing came back', () => {
    const cancelled = {
      name: 'TransactionCanceledException',
      CancellationReasons: [
        { Code: 'None' },
        { Code: 'ConditionalCheckFailed', Item: { version: { N: '2' } } },
      ],
    };
    expect(cancellationItems(cancelled)).toEqual([undefined, { version: 2 }]);
  });
});
