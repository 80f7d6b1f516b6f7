import { TransactWriteCommand } from '@aws-sdk/lib-dynamodb';
import type { Item } from './batch.ts';
import { isTransactionConflict } from './conflict-retry.ts';
import type { Db } from './db.ts';
import { cancellationItems, failedConditions, type TransactItem } from './errors.ts';

/**
 * `written`; `failed`: the conditions of the items at `failed` did not hold, and `current` holds each
 * item as it is now (where the write asked for it), nothing written; `conflict`: DynamoDB kept
 * cancelling it for concurrent writes to its items after shared/store/conflict-retry.ts gave up
 * (real DynamoDB only), nothing written.
 */
export type TransactOutcome =
  | { outcome: 'written' }
  | { outcome: 'failed'; failed: number[]; current: Array<Item | undefined> }
  | { outcome: 'conflict' };

/** One TransactWriteItems, its cancellations read as outcomes: the one place that reads them. */
export async function transactWrite(db: Db, items: TransactItem[]): Promise<TransactOutcome> {
  try {
    await db.client.send(new TransactWriteCommand({ TransactItems: items }));
    return { outcome: 'written' };
  } catch (error) {
    if (isTransactionConflict(error)) return { outcome: 'conflict' };
    const failed = failedConditions(error);
    if (!failed) throw error;
    return { outcome: 'failed', failed, current: cancellationItems(error) };
  }
}
