import type { Deps } from '../deps.ts';
import { rateLimited } from '../errors.ts';
import { keys } from '../store/keys.ts';
import { type RateLogWrite, rateLogWrite, replaceHits, saveRateLog } from '../store/rate-logs.ts';
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

/** The log of `subject` from its stored item (undefined: none yet). */
export function rateLogFrom(
  limit: Limit,
  subject: string,
  item: Record<string, unknown> | undefined,
): RateLog {
  return withState({ limit, key: rateLogKey(limit, subject), hits: [], version: 0 }, item);
}

/** The same log as it is now, e.g. as a write that lost a race returned it. */
export function withState(log: RateLog, item: Record<string, unknown> | undefined): RateLog {
  return {
    ...log,
    hits: Array.isArray(item?.hits) ? (item.hits as unknown[]).map(Number) : [],
    version: Number(item?.version ?? 0),
  };
}

/** Attempts in all when racing writers keep winning (each attempt is one write, no read). */
export const MAX_RACES = 25;

/**
 * Records a hit at `nowMs` as a write (alone, or in the caller's transaction), or throws
 * 429 RATE_LIMITED with the exact Retry-After when `max` hits already lie within the window.
 */
export function recordHit(table: string, log: RateLog, nowMs: number): RateLogWrite {
  const windowMs = log.limit.windowSeconds * 1000;
  const recent = log.hits.filter((time) => time > nowMs - windowMs);
  if (recent.length >= log.limit.max) {
    const oldest = recent[recent.length - log.limit.max] ?? nowMs;
    throw rateLimited((oldest + windowMs - nowMs) / 1000);
  }
  return rateLogWrite(table, log, [...recent, nowMs].slice(-log.limit.max), nowMs + windowMs);
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
  const now = deps.clock.now();
  for (let attempt = 0; attempt < MAX_RACES; attempt++) {
    const saved = await saveRateLog(deps.db, recordHit(deps.db.table, log, now));
    if (saved.outcome === 'saved') return;
    const current = withState(log, saved.current);
    // An SDK retry of our own write that had landed (its answer lost) finds our hit: done.
    if (current.version === log.version + 1 && current.hits.at(-1) === now) return;
    log = current;
  }
  throw tooBusy();
}

/**
 * Takes back the hit recorded at `nowMs` (a request that did not happen after all), whatever was
 * written since: version-conditioned, deciding again on a lost race. Best effort: gives up quietly.
 */
export async function refundHit(deps: Deps, log: RateLog, nowMs: number): Promise<void> {
  let current: RateLog = {
    ...log,
    hits: [...log.hits, nowMs].slice(-log.limit.max),
    version: log.version + 1,
  };
  for (let attempt = 0; attempt < MAX_RACES; attempt++) {
    const index = current.hits.lastIndexOf(nowMs);
    if (index < 0) return;
    const saved = await replaceHits(
      deps.db,
      current,
      current.hits.filter((_, i) => i !== index),
    );
    if (saved.outcome === 'saved') return;
    current = withState(log, saved.current);
  }
}
