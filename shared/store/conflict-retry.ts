import type { InitializeHandler, InitializeMiddleware, MetadataBearer } from '@smithy/types';

/** Attempts in all, including the first. */
export const CONFLICT_ATTEMPTS = 6;

type Reasons = Array<{ Code?: string }> | undefined;

/**
 * DynamoDB cancels a transaction that touches an item another transaction is writing
 * (`TransactionCanceledException` with reason `TransactionConflict`), and refuses a plain write
 * to such an item (`TransactionConflictException`). Nothing was written either way, and the SDK's
 * retry strategy does not retry them. A cancellation that also failed a condition is an answer,
 * not a conflict, and is never retried.
 */
export function isTransactionConflict(error: unknown): boolean {
  const name = (error as Error | undefined)?.name;
  if (name === 'TransactionConflictException') return true;
  if (name !== 'TransactionCanceledException') return false;
  const reasons = (error as { CancellationReasons?: Reasons }).CancellationReasons ?? [];
  return (
    reasons.some((reason) => reason.Code === 'TransactionConflict') &&
    reasons.every((reason) => reason.Code === 'TransactionConflict' || reason.Code === 'None' || !reason.Code)
  );
}

const pause = (attempt: number) =>
  new Promise((resolve) => setTimeout(resolve, Math.random() * 10 * 2 ** attempt + 5));

/** Client middleware: retries a conflicting request with jittered backoff (5 retries, < 0.5 s in all). */
export const conflictRetry: InitializeMiddleware<object, MetadataBearer> =
  (next: InitializeHandler<object, MetadataBearer>) => async (args) => {
    for (let attempt = 1; ; attempt++) {
      try {
        return await next(args);
      } catch (error) {
        if (attempt >= CONFLICT_ATTEMPTS || !isTransactionConflict(error)) throw error;
        await pause(attempt);
      }
    }
  };
