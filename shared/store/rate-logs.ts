import { UpdateCommand } from '@aws-sdk/lib-dynamodb';
import type { Item, Key } from './batch.ts';
import type { Db } from './db.ts';
import { conditionFailureItem, isConditionFailure } from './errors.ts';
import type { Read } from './reads.ts';

/** One counted hit: when (epoch ms), and a random id that tells it from any other hit. */
export interface Hit {
  at: number;
  id: string;
}

/** A rate-limit log as it was read: its key, its hits (in no order) and its version. */
export interface StoredLog {
  key: Key;
  hits: Hit[];
  /** 0 while the item does not exist; every write moves it. */
  version: number;
}

// A hit is stored as `<epoch ms in base 36>.<id>` in the string set `hits`: adding one is an
// atomic ADD that a retry cannot count twice, and two hits of one millisecond stay two.
const entryOf = (hit: Hit) => `${hit.at.toString(36)}.${hit.id}`;

function hitOf(entry: unknown): Hit[] {
  const [at, id] = String(entry).split('.');
  const time = Number.parseInt(at ?? '', 36);
  return id && Number.isSafeInteger(time) ? [{ at: time, id }] : [];
}

/** A log's hits and version, as read (no item: no hits, version 0). */
export type LogState = Omit<StoredLog, 'key'>;

/** The hits and version of a log item as read or as a failed write returned it (undefined: none). */
export function storedState(item: Item | undefined): LogState {
  const entries = item?.hits instanceof Set || Array.isArray(item?.hits) ? [...item.hits] : [];
  return { hits: entries.flatMap(hitOf), version: Number(item?.version ?? 0) };
}

/** The read of a rate limit's log, for a batch (a log not there: no record, so no hits yet). */
export const logRead = (key: Key): Read<LogState> => ({ key, decode: storedState });

// A hit is added only while the log holds fewer than `max` hits (docs/security.md, "Rate limits"), so hits
// within the limit never race each other: each lands in its first write, whoever else writes meanwhile.
const roomForOne = 'attribute_not_exists(hits) OR size(hits) < :max';
// A full log is rewritten (its hits that left the window dropped) only over the version that was
// read: every write moves the version, so a rewrite never drops a hit it did not see.
const unchangedSinceRead = 'version = :version';
// A hit is given back only while it is there: giving it back twice must not create the item again.
const stillCounted = 'contains(hits, :entry)';

/** An UpdateItem of a log, usable on its own (`saveRateLog`) or in a transaction. */
export interface RateLogWrite {
  TableName: string;
  Key: Key;
  UpdateExpression: string;
  ConditionExpression: string;
  ExpressionAttributeValues: Record<string, number | Set<string>>;
  ReturnValuesOnConditionCheckFailure: 'ALL_OLD';
}

/** The item outlives the window of its newest hit by a minute, then TTL removes it. */
const expiresAtOf = (keepUntilMs: number) => Math.ceil(keepUntilMs / 1000) + 60;

/** Adds `hit` while the log has room for it. */
export function addHitWrite(
  table: string,
  key: Key,
  hit: Hit,
  max: number,
  keepUntilMs: number,
): RateLogWrite {
  return {
    TableName: table,
    Key: key,
    UpdateExpression: 'ADD hits :hit, version :one SET expiresAt = :expiresAt',
    ConditionExpression: roomForOne,
    ExpressionAttributeValues: {
      ':hit': new Set([entryOf(hit)]),
      ':one': 1,
      ':max': max,
      ':expiresAt': expiresAtOf(keepUntilMs),
    },
    ReturnValuesOnConditionCheckFailure: 'ALL_OLD',
  };
}

/** Replaces the hits of `log` (as read at its version) with `hits`. */
export function rewriteWrite(table: string, log: StoredLog, hits: Hit[], keepUntilMs: number): RateLogWrite {
  return {
    TableName: table,
    Key: log.key,
    UpdateExpression: 'SET hits = :hits, expiresAt = :expiresAt ADD version :one',
    ConditionExpression: unchangedSinceRead,
    ExpressionAttributeValues: {
      ':hits': new Set(hits.map(entryOf)),
      ':one': 1,
      ':version': log.version,
      ':expiresAt': expiresAtOf(keepUntilMs),
    },
    ReturnValuesOnConditionCheckFailure: 'ALL_OLD',
  };
}

/** `raced`: the log was full, or changed since it was read; `current` is the log as it is now. */
export type LogOutcome = { outcome: 'saved' } | { outcome: 'raced'; current: LogState };

/** One UpdateItem: a write of `addHitWrite` or `rewriteWrite`. */
export async function saveRateLog(db: Db, write: RateLogWrite): Promise<LogOutcome> {
  try {
    await db.client.send(new UpdateCommand(write));
    return { outcome: 'saved' };
  } catch (error) {
    if (!isConditionFailure(error)) throw error;
    return { outcome: 'raced', current: storedState(conditionFailureItem(error)) };
  }
}

/** `absent`: the hit is not in the log (never counted there, or already taken out). */
export type RemoveOutcome = { outcome: 'removed' } | { outcome: 'absent' };

/**
 * Takes `hit` out of the log: one DELETE from the set, whatever was written since (it moves the
 * version, so a rewrite that saw the hit decides again).
 */
export async function removeHit(db: Db, key: Key, hit: Hit): Promise<RemoveOutcome> {
  try {
    await db.client.send(
      new UpdateCommand({
        TableName: db.table,
        Key: key,
        UpdateExpression: 'DELETE hits :hit ADD version :one',
        ConditionExpression: stillCounted,
        ExpressionAttributeValues: { ':hit': new Set([entryOf(hit)]), ':entry': entryOf(hit), ':one': 1 },
      }),
    );
    return { outcome: 'removed' };
  } catch (error) {
    if (!isConditionFailure(error)) throw error;
    return { outcome: 'absent' };
  }
}
