import { UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { unmarshall } from '@aws-sdk/util-dynamodb';
import type { Deps } from '../deps.ts';
import { rateLimited } from '../errors.ts';
import { isConditionFailure } from '../store/errors.ts';
import { keys } from '../store/keys.ts';
import type { Limit } from './limits.ts';

/**
 * Exact sliding-window limits (SPEC §8 holds over ANY window of the stated length): one item per
 * limit and subject keeps the times of the last `max` hits. A hit is allowed while fewer than `max`
 * of them lie within the window; Retry-After is when the oldest of them leaves it. The item is read
 * in the request's existing read and written with a version condition; a writer that loses a race
 * gets the current item back (ReturnValuesOnConditionCheckFailure) and decides again, without
 * another read. So concurrent requests never exceed the limit.
 */
export interface RateLog {
  limit: Limit;
  key: { pk: string; sk: string };
  /** Epoch ms of the last hits, oldest first (at most `limit.max`). */
  hits: number[];
  /** 0 while the item does not exist. */
  version: number;
}

export const rateLogKey = (limit: Limit, subject: string) => keys.rateLog(limit.bucket, subject);

/** The log from its stored item (plain, or marshalled as a failed condition returns it). */
export function rateLogFrom(
  limit: Limit,
  subject: string,
  item: Record<string, unknown> | undefined,
): RateLog {
  const plain = item && typeof item.version === 'object' ? unmarshall(item as never) : item;
  return {
    limit,
    key: rateLogKey(limit, subject),
    hits: Array.isArray(plain?.hits) ? (plain.hits as unknown[]).map(Number) : [],
    version: Number(plain?.version ?? 0),
  };
}

/** Attempts in all when racing writers keep winning (each attempt is one write, no read). */
export const MAX_RACES = 25;

/**
 * Records a hit at `nowMs` as an Update (also usable in TransactWriteItems), or throws
 * 429 RATE_LIMITED with the exact Retry-After when `max` hits already lie within the window.
 */
export function recordHit(table: string, log: RateLog, nowMs: number) {
  const windowMs = log.limit.windowSeconds * 1000;
  const recent = log.hits.filter((time) => time > nowMs - windowMs);
  if (recent.length >= log.limit.max) {
    const oldest = recent[recent.length - log.limit.max] ?? nowMs;
    throw rateLimited((oldest + windowMs - nowMs) / 1000);
  }
  const hits = [...recent, nowMs].slice(-log.limit.max);
  return {
    TableName: table,
    Key: log.key,
    UpdateExpression: 'SET hits = :hits, version = :next, expiresAt = :expiresAt',
    ConditionExpression: log.version === 0 ? 'attribute_not_exists(version)' : 'version = :version',
    ExpressionAttributeValues: {
      ':hits': hits,
      ':next': log.version + 1,
      ':expiresAt': Math.ceil((nowMs + windowMs) / 1000) + 60,
      ...(log.version === 0 ? {} : { ':version': log.version }),
    },
    ReturnValuesOnConditionCheckFailure: 'ALL_OLD' as const,
  };
}

/** After too many lost races the caller is told to come back in a moment. */
export const tooBusy = () => rateLimited(1, { reason: 'busy' });

/**
 * Counts one hit of `subject` against `limit` (one UpdateItem; more only when racing), or throws
 * 429 RATE_LIMITED. `item` is the log as the caller already read it (undefined: none yet).
 */
export async function consume(
  deps: Deps,
  limit: Limit,
  subject: string,
  item: Record<string, unknown> | undefined,
) {
  let log = rateLogFrom(limit, subject, item);
  for (let attempt = 0; attempt < MAX_RACES; attempt++) {
    try {
      await deps.db.client.send(new UpdateCommand(recordHit(deps.db.table, log, deps.clock.now())));
      return;
    } catch (error) {
      if (!isConditionFailure(error)) throw error;
      log = rateLogFrom(limit, subject, (error as { Item?: Record<string, unknown> }).Item);
    }
  }
  throw tooBusy();
}
