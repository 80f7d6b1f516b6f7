import type { Deps } from '../deps.ts';
import { rateLimited } from '../errors.ts';
import type { Metrics } from '../metrics/metrics.ts';
import type { Random } from '../random.ts';
import { keys } from '../store/keys.ts';
import {
  addHitWrite,
  type Hit,
  type LogState,
  logRead,
  type RateLogWrite,
  removeHit,
  rewriteWrite,
  type StoredLog,
  saveRateLog,
  storedState,
} from '../store/rate-logs.ts';
import type { Limit } from './limits.ts';

/**
 * Exact sliding-window limits (a limit holds over ANY window of the stated length: docs/security.md,
 * "Rate limits"): one item per limit and subject holds its last hits, at most `max`. A hit is allowed while
 * fewer than `max` of them lie within the window; Retry-After is when the oldest of those leaves it.
 *
 * A burst within the limit is never refused, and a lost race is decided again without unbounded rewrites
 * (docs/security.md, "Rate limits"): a hit is added to the log by an atomic ADD that holds while the log has
 * room, so concurrent hits within the limit each land in one write. Only a full log whose oldest hits have
 * left the window is rewritten, under a version condition. A write whose condition fails gets the log back as
 * it is now and decides again, without another read. Each hit carries a random id, so a request recognises
 * its own hit (a retried write that had landed) and never another request's of the same millisecond.
 */
export interface RateLog extends StoredLog {
  limit: Limit;
}

export const rateLogKey = (limit: Limit, subject: string) => keys.rateLog(limit.bucket, subject);

/** The read of the log of `subject`, for the request's batch read. */
export const rateLogRead = (limit: Limit, subject: string) => logRead(rateLogKey(limit, subject));

/** The log of `subject` as read (undefined: none yet). */
export function rateLogFrom(limit: Limit, subject: string, state: LogState | undefined): RateLog {
  return { limit, key: rateLogKey(limit, subject), ...(state ?? storedState(undefined)) };
}

/** The same log as it is now, e.g. as a write that lost a race returned it. */
export const withState = (log: RateLog, state: LogState): RateLog => ({ ...log, ...state });

/** A request's hit at `at`; 32 random bits tell it from other hits of the same millisecond. */
export const newHit = (random: Random, at: number): Hit => ({
  at,
  id: Buffer.from(random.bytes(4)).toString('base64url'),
});

/** Whether `hit` is in the log: a write of it landed. */
const holds = (log: RateLog, hit: Hit) => log.hits.some((h) => h.id === hit.id && h.at === hit.at);

/**
 * Writes per hit before giving up. An add fails only on a full log, a rewrite only after another
 * write, and each failure returns the log to decide on: 60 concurrent hits take at most 2 writes
 * each (`npm run bench -- limits`).
 */
export const MAX_WRITES = 4;

/**
 * The write that counts `hit` (alone, or in the caller's transaction), or throws 429 RATE_LIMITED
 * with the exact Retry-After when `max` hits already lie within the window.
 */
export function recordHit(table: string, log: RateLog, hit: Hit): RateLogWrite {
  const { max, windowSeconds } = log.limit;
  const windowMs = windowSeconds * 1000;
  const recent = log.hits.filter((h) => h.at > hit.at - windowMs);
  if (recent.length >= max) {
    const times = recent.map((h) => h.at).sort((a, b) => a - b);
    const oldest = times[times.length - max] ?? hit.at;
    throw rateLimited((oldest + windowMs - hit.at) / 1000);
  }
  const keepUntil = hit.at + windowMs;
  if (log.hits.length < max) return addHitWrite(table, log.key, hit, max, keepUntil);
  return rewriteWrite(table, log, [...recent, hit], keepUntil);
}

/**
 * `decide` (recordHit, or several of them), counting its refusal in the `RateLimited` metric. Only
 * a limit's refusal counts: `tooBusy` (lost races) is not a client over a limit.
 */
export function countingRefusal<T>(metrics: Metrics, decide: () => T): T {
  try {
    return decide();
  } catch (error) {
    metrics.count('RateLimited');
    throw error;
  }
}

/** After MAX_WRITES the caller is told to come back in a moment. */
export const tooBusy = () => rateLimited(1, { reason: 'busy' });

/**
 * Counts one hit of `subject` against `limit` (one UpdateItem; more only when the log was full or
 * changed), or throws 429 RATE_LIMITED. `state` is the log as the caller already read it
 * (undefined: none yet).
 */
export async function consume(
  deps: Deps,
  limit: Limit,
  subject: string,
  state: LogState | undefined,
): Promise<void> {
  let log = rateLogFrom(limit, subject, state);
  const hit = newHit(deps.random, deps.clock.now());
  for (let write = 0; write < MAX_WRITES; write++) {
    const saved = await saveRateLog(
      deps.db,
      countingRefusal(deps.metrics, () => recordHit(deps.db.table, log, hit)),
    );
    if (saved.outcome === 'saved') return;
    log = withState(log, saved.current);
    // An SDK retry of our own write that had landed (its answer lost) finds our hit: done.
    if (holds(log, hit)) return;
  }
  throw tooBusy();
}

/** Takes back `hit` (a request that did not happen after all). One write; nothing if it is gone. */
export async function refundHit(deps: Deps, log: RateLog, hit: Hit): Promise<void> {
  await removeHit(deps.db, log.key, hit);
}
