import { describe, expect, it } from 'vitest';
import { AppError } from '../../shared/errors.ts';
import { cryptoRandom } from '../../shared/random.ts';
import type { Limit } from '../../shared/rate-limit/limits.ts';
import { newHit, rateLogFrom, recordHit, withState } from '../../shared/rate-limit/rate-limit.ts';
import { cancellationItems, conditionFailureItem } from '../../shared/store/errors.ts';
import { storedState } from '../../shared/store/rate-logs.ts';

const limit: Limit = { bucket: 'test', max: 3, windowSeconds: 600 };
const hitAt = (at: number) => newHit(cryptoRandom, at);
const log = (times: number[], version = 1) => ({
  ...rateLogFrom(limit, 's', undefined),
  hits: times.map(hitAt),
  version,
});
const entryOf = (hit: { at: number; id: string }) => `${hit.at.toString(36)}.${hit.id}`;

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
    const third = hitAt(3_000);
    const update = recordHit('t', log([1_000, 2_000]), third);
    expect(update.ExpressionAttributeValues[':hit']).toEqual(new Set([entryOf(third)]));
    const refused = refusal(() => recordHit('t', log([1_000, 2_000, 3_000]), hitAt(4_000)));
    expect(refused.code).toBe('RATE_LIMITED');
    // The oldest of the three leaves the window at 601 000 ms: 597 s from 4 000 ms.
    expect(refused.headers?.['retry-after']).toBe('597');
  });

  it('take Retry-After from the hits in the window, in whatever order the log holds them', () => {
    const refused = refusal(() => recordHit('t', log([3_000, 1_000, 2_000]), hitAt(4_000)));
    expect(refused.headers?.['retry-after']).toBe('597');
  });

  it('add a hit with an atomic ADD that holds only while the log has room, never over a version', () => {
    for (const read of [log([], 0), log([5], 7)]) {
      const update = recordHit('t', read, hitAt(10));
      expect(update.UpdateExpression).toBe('ADD hits :hit, version :one SET expiresAt = :expiresAt');
      expect(update.ConditionExpression).toBe('attribute_not_exists(hits) OR size(hits) < :max');
      expect(update.ExpressionAttributeValues).toMatchObject({ ':max': 3 });
    }
  });

  it('rewrite a full log without its hits that left the window, over the version read', () => {
    const full = log([1_000, 2_000, 3_000], 7);
    const hit = hitAt(601_001);
    const update = recordHit('t', full, hit);
    expect(update.ConditionExpression).toBe('version = :version');
    expect(update.ExpressionAttributeValues).toMatchObject({ ':version': 7 });
    expect(update.ExpressionAttributeValues[':hits']).toEqual(
      new Set([entryOf(full.hits[1]!), entryOf(full.hits[2]!), entryOf(hit)]),
    );
  });

  it('keep the log item alive for a minute after its newest hit leaves the window', () => {
    const update = recordHit('t', log([]), hitAt(1_000));
    expect(update.ExpressionAttributeValues[':expiresAt']).toBe(601 + 60);
  });

  it('tell two hits of one millisecond apart by their ids, so each counts', () => {
    const [first, second] = [hitAt(5), hitAt(5)];
    expect(first.id).not.toBe(second.id);
    // The second's ADD carries an entry of its own: the string set grows to two, not stays at one.
    const add = recordHit('t', { ...log([]), hits: [first] }, second);
    expect(add.ExpressionAttributeValues[':hit']).toEqual(new Set([entryOf(second)]));
    expect(entryOf(second)).not.toBe(entryOf(first));
    // Read back, three entries of one millisecond are three hits: the log is full, the next refused.
    const item = { hits: new Set([first, second, hitAt(5)].map(entryOf)), version: 3 };
    const refused = refusal(() => recordHit('t', rateLogFrom(limit, 's', storedState(item)), hitAt(6)));
    expect(refused.headers?.['retry-after']).toBe('600');
  });

  it('read the log from a marshalled item, as a failed condition returns it', () => {
    const marshalled = { version: { N: '4' }, hits: { SS: ['a.x1', 'k.y2'] } };
    const failure = Object.assign(new Error('lost'), {
      name: 'ConditionalCheckFailedException',
      Item: marshalled,
    });
    expect(rateLogFrom(limit, 's', storedState(conditionFailureItem(failure)))).toMatchObject({
      version: 4,
      hits: [
        { at: 10, id: 'x1' },
        { at: 20, id: 'y2' },
      ],
    });
    expect(withState(log([1], 1), storedState(conditionFailureItem(failure)))).toMatchObject({
      version: 4,
      hits: [
        { at: 10, id: 'x1' },
        { at: 20, id: 'y2' },
      ],
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
