import { UpdateCommand } from '@aws-sdk/lib-dynamodb';
import type { Item, Key } from './batch.ts';
import type { Db } from './db.ts';
import { conditionFailureItem, isConditionFailure } from './errors.ts';

/** A rate-limit log as it was read: its key and the version every write is conditioned on. */
export interface ReadLog {
  key: Key;
  /** 0 while the item does not exist. */
  version: number;
}

// DESIGN §3: a log is written only over the version that was read, so two writers can never both
// count on the same state; the loser gets the current log back and decides again.
const neverWritten = 'attribute_not_exists(version)';
const unchangedSinceRead = 'version = :version';

/**
 * The write of a log's new hits, usable on its own (`saveRateLog`) or in a transaction. The item
 * outlives its newest hit's window by a minute (`keepUntilMs` + 60 s), then TTL removes it.
 */
export function rateLogWrite(table: string, log: ReadLog, hits: number[], keepUntilMs: number) {
  return {
    TableName: table,
    Key: log.key,
    UpdateExpression: 'SET hits = :hits, version = :next, expiresAt = :expiresAt',
    ConditionExpression: log.version === 0 ? neverWritten : unchangedSinceRead,
    ExpressionAttributeValues: {
      ':hits': hits,
      ':next': log.version + 1,
      ':expiresAt': Math.ceil(keepUntilMs / 1000) + 60,
      ...(log.version === 0 ? {} : { ':version': log.version }),
    },
    ReturnValuesOnConditionCheckFailure: 'ALL_OLD' as const,
  };
}
export type RateLogWrite = ReturnType<typeof rateLogWrite>;

/** `raced`: another writer changed the log since it was read; `current` is the log as it is now. */
export type LogOutcome = { outcome: 'saved' } | { outcome: 'raced'; current: Item | undefined };

async function conditioned(
  db: Db,
  update: ConstructorParameters<typeof UpdateCommand>[0],
): Promise<LogOutcome> {
  try {
    await db.client.send(new UpdateCommand(update));
    return { outcome: 'saved' };
  } catch (error) {
    if (!isConditionFailure(error)) throw error;
    return { outcome: 'raced', current: conditionFailureItem(error) };
  }
}

/** One UpdateItem: the write of `rateLogWrite`. */
export const saveRateLog = (db: Db, write: RateLogWrite): Promise<LogOutcome> => conditioned(db, write);

/** Replaces the hits of a log read at `log.version` (a refund), keeping its expiry. */
export const replaceHits = (db: Db, log: ReadLog, hits: number[]): Promise<LogOutcome> =>
  conditioned(db, {
    TableName: db.table,
    Key: log.key,
    UpdateExpression: 'SET hits = :hits, version = :next',
    ConditionExpression: unchangedSinceRead,
    ExpressionAttributeValues: { ':hits': hits, ':next': log.version + 1, ':version': log.version },
    ReturnValuesOnConditionCheckFailure: 'ALL_OLD',
  });
