import { TransactionCanceledException } from '@aws-sdk/client-dynamodb';
import { describe, expect, it } from 'vitest';
import {
  CONFLICT_ATTEMPTS,
  conflictRetry,
  isTransactionConflict,
} from '../../shared/store/conflict-retry.ts';

const cancelled = (...codes: string[]) =>
  new TransactionCanceledException({
    message: 'Transaction cancelled',
    $metadata: {},
    CancellationReasons: codes.map((Code) => ({ Code })),
  });
const plainConflict = Object.assign(new Error('conflict'), { name: 'TransactionConflictException' });

/** A `next` handler that fails with `errors` in turn, then succeeds; counts its calls. */
function flaky(errors: unknown[]) {
  let calls = 0;
  const next = async () => {
    const error = errors[calls++];
    if (error) throw error;
    return { output: { $metadata: {} }, response: {} };
  };
  return { handler: conflictRetry(next as never, {} as never), calls: () => calls };
}

describe('DynamoDB transaction conflicts', () => {
  it('recognises a cancellation made only of conflicts, and a plain write conflict', () => {
    expect(isTransactionConflict(cancelled('None', 'TransactionConflict'))).toBe(true);
    expect(isTransactionConflict(plainConflict)).toBe(true);
  });

  it('treats a cancellation with a failed condition as an answer, not a conflict', () => {
    expect(isTransactionConflict(cancelled('ConditionalCheckFailed', 'TransactionConflict'))).toBe(false);
    expect(isTransactionConflict(cancelled('ConditionalCheckFailed'))).toBe(false);
    expect(isTransactionConflict(new Error('boom'))).toBe(false);
  });

  it('retries a conflicting request until it goes through', async () => {
    const { handler, calls } = flaky([cancelled('TransactionConflict'), plainConflict]);
    await expect(handler({ input: {} })).resolves.toBeDefined();
    expect(calls()).toBe(3);
  });

  it('passes a condition failure through at once', async () => {
    const failure = cancelled('ConditionalCheckFailed', 'None');
    const { handler, calls } = flaky([failure]);
    await expect(handler({ input: {} })).rejects.toBe(failure);
    expect(calls()).toBe(1);
  });

  it(`gives up after ${CONFLICT_ATTEMPTS} attempts and surfaces the conflict`, async () => {
    const { handler, calls } = flaky(Array.from({ length: CONFLICT_ATTEMPTS + 2 }, () => plainConflict));
    await expect(handler({ input: {} })).rejects.toBe(plainConflict);
    expect(calls()).toBe(CONFLICT_ATTEMPTS);
  });
});
