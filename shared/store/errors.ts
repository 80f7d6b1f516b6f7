import { TransactionCanceledException } from '@aws-sdk/client-dynamodb';

export const isConditionFailure = (error: unknown): boolean =>
  error instanceof Error && error.name === 'ConditionalCheckFailedException';

/**
 * The indexes of the items whose condition failed in a cancelled TransactWriteItems,
 * or null when the transaction failed for another reason.
 */
export function failedConditions(error: unknown): number[] | null {
  if (
    !(error instanceof TransactionCanceledException) &&
    (error as Error)?.name !== 'TransactionCanceledException'
  ) {
    return null;
  }
  const reasons = (error as TransactionCanceledException).CancellationReasons ?? [];
  const failed = reasons.flatMap((reason, index) =>
    reason.Code === 'ConditionalCheckFailed' ? [index] : [],
  );
  return failed.length > 0 ? failed : null;
}
