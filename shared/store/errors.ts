import { isDeepStrictEqual } from 'node:util';
import { type AttributeValue, TransactionCanceledException } from '@aws-sdk/client-dynamodb';
import type { TransactWriteCommandInput } from '@aws-sdk/lib-dynamodb';
import { marshall, unmarshall } from '@aws-sdk/util-dynamodb';

/** One entry of a TransactWriteItems request (document-client form). */
export type TransactItem = NonNullable<TransactWriteCommandInput['TransactItems']>[number];

type Marshalled = Record<string, AttributeValue> | undefined;

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

/**
 * The item as it was when a write with `ReturnValuesOnConditionCheckFailure: 'ALL_OLD'` failed its
 * condition, or undefined (no such item). lib-dynamodb does not translate error payloads, so it
 * arrives marshalled; this is the one place that reads it.
 */
export function conditionFailureItem(error: unknown): Record<string, unknown> | undefined {
  const item = (error as { Item?: Marshalled }).Item;
  return item ? unmarshall(item) : undefined;
}

/** The same for each entry of a cancelled TransactWriteItems, by index. */
export function cancellationItems(error: unknown): Array<Record<string, unknown> | undefined> {
  const reasons = (error as { CancellationReasons?: Array<{ Item?: Marshalled }> }).CancellationReasons ?? [];
  return reasons.map((reason) => (reason.Item ? unmarshall(reason.Item) : undefined));
}

/**
 * Whether `stored` (from `conditionFailureItem`) is exactly the item `written` put, as DynamoDB keeps
 * it (undefined attributes removed, as db.ts marshals): a resent Put that had landed finds its own
 * item. Items with a random id or hash of at least 128 bits are never written identically twice.
 */
export function holdsWrittenItem(
  stored: Record<string, unknown> | undefined,
  written: Record<string, unknown>,
): boolean {
  return (
    stored !== undefined &&
    isDeepStrictEqual(stored, unmarshall(marshall(written, { removeUndefinedValues: true })))
  );
}
