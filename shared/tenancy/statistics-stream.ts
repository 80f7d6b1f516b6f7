/**
 * The statistics aggregator (docs/data-model.md, Statistics): counts what the table's stream shows
 * changed, so no request writes an item that all sign-ins of an application share. A stream record
 * of one item counts as follows:
 * - a session of an application (it has `countedIn`): created, a sign-in on the day it was created
 *   and one session under its minute; `countedIn` moved (a refresh), from the old minute to the new;
 *   deleted by a request (sign-out, revoke, a user disabled or deleted), uncounted from its minute;
 * - a user of an application: created, a new user on the day it was created and one more user;
 *   deleted, one fewer;
 * - a tenant organization: created, one more; deleted, one fewer.
 * A deletion by TTL uncounts nothing: an expired session already drops out of the active sessions
 * by its minute (shared/tenancy/statistics.ts), and nothing else counted expires. Nor does a session
 * counted before the days the statistics read. Each record that counts is marked in the transaction
 * that counts it (shared/store/statistics.ts `countOnce`), so a delivery of records already counted
 * (a retried batch, a second reader) adds nothing. Counting is a sum, so the order of records does
 * not matter.
 */
import type { Deps } from '../deps.ts';
import type { TransactItem } from '../store/errors.ts';
import { PLATFORM } from '../store/keys.ts';
import { type CountDeltas, countOnce, countWrites, noDeltas } from '../store/statistics.ts';
import { changesOf, type StreamChange, type StreamEvent } from '../store/stream-records.ts';
import { stillCounted } from './statistics.ts';

/** What a delivery of the stream holds (shared/store/stream-records.ts). */
export type { StreamEvent };

/** An item's image, as much of it as the statistics read. */
type Item = NonNullable<StreamChange['newImage']>;

/** TransactWriteItems takes at most 100 items: a mark per record and the counter Updates. */
const TRANSACTION_ITEMS = 100;

const text = (item: Item | undefined, name: string) =>
  typeof item?.[name] === 'string' ? (item[name] as string) : undefined;

/** The application whose counters `item` moves, and how: none for anything else. */
function counted(
  item: Item | undefined,
): { applicationId: string; as: 'session' | 'user' | 'organization' } | undefined {
  const type = text(item, 'type');
  if (type === 'session' || type === 'user') {
    const scope = text(item, 'scope');
    if (!scope || scope === PLATFORM) return undefined;
    if (type === 'session' && !text(item, 'countedIn')) return undefined;
    return { applicationId: scope, as: type };
  }
  const applicationId = text(item, 'applicationId');
  if (type === 'organization' && text(item, 'kind') === 'tenant' && applicationId) {
    return { applicationId, as: 'organization' };
  }
  return undefined;
}

const add = (map: Map<string, number>, key: string, n: number) => map.set(key, (map.get(key) ?? 0) + n);
const dayOf = (item: Item | undefined) => (text(item, 'createdAt') ?? '').slice(0, 10);

/** Adds what one change does to the counters of its application, by application id. */
function tallyChange(tally: Map<string, CountDeltas>, change: StreamChange, now: number): void {
  const image = change.newImage ?? change.oldImage;
  const target = counted(image);
  if (!target) return;
  const deltas = tally.get(target.applicationId) ?? noDeltas();
  tally.set(target.applicationId, deltas);
  const minute = (item: Item | undefined) => {
    const countedIn = text(item, 'countedIn');
    return countedIn && stillCounted(countedIn, now) ? countedIn : undefined;
  };
  if (target.as === 'session') {
    const before = change.kind === 'INSERT' ? undefined : minute(change.oldImage);
    const after = change.kind === 'REMOVE' ? undefined : text(change.newImage, 'countedIn');
    if (change.kind === 'INSERT') add(deltas.signIns, dayOf(change.newImage), 1);
    if (change.kind === 'REMOVE' && change.expired) return;
    if (before === after) return;
    if (before) add(deltas.sessions, before, -1);
    if (after) add(deltas.sessions, after, 1);
    return;
  }
  const by = change.kind === 'INSERT' ? 1 : change.kind === 'REMOVE' ? -1 : 0;
  if (target.as === 'user') {
    deltas.users += by;
    if (change.kind === 'INSERT') add(deltas.newUsers, dayOf(change.newImage), 1);
  } else {
    deltas.organizations += by;
  }
}

/** The counter Updates of `changes`, for every application they touch. */
function counterWrites(table: string, changes: readonly StreamChange[], now: number): TransactItem[] {
  const tally = new Map<string, CountDeltas>();
  for (const change of changes) tallyChange(tally, change, now);
  return [...tally].flatMap(([applicationId, deltas]) => countWrites(table, applicationId, deltas));
}

/**
 * Whether a change moves any counter: only those are marked and counted. One that moves none now
 * never will: what it could uncount (a minute the statistics read) only leaves their window.
 */
const counts = (change: StreamChange, table: string, now: number): boolean =>
  counted(change.newImage ?? change.oldImage) !== undefined && counterWrites(table, [change], now).length > 0;

/**
 * `changes` cut into runs whose marks and counter Updates fit one transaction: a change adds its
 * mark and at most 6 Updates, so a run ends before the change that would take it past 100 items.
 */
function runs(table: string, changes: readonly StreamChange[], now: number) {
  const cut: { changes: StreamChange[]; writes: TransactItem[] }[] = [];
  let run: StreamChange[] = [];
  let writes: TransactItem[] = [];
  for (const change of changes) {
    const longer = counterWrites(table, [...run, change], now);
    if (run.length > 0 && run.length + 1 + longer.length > TRANSACTION_ITEMS) {
      cut.push({ changes: run, writes });
      run = [change];
      writes = counterWrites(table, run, now);
    } else {
      run.push(change);
      writes = longer;
    }
  }
  if (run.length > 0) cut.push({ changes: run, writes });
  return cut;
}

/** Thrown when DynamoDB kept cancelling a run for concurrent writes: the batch is delivered again. */
class CountConflict extends Error {
  override name = 'CountConflict';
}

export interface BatchCount {
  /** Records that moved a counter now. */
  counted: number;
  /** Records counted by an earlier delivery. */
  seen: number;
  /** Records that move no counter. */
  ignored: number;
}

/**
 * Counts a batch of stream records, a run per transaction. A run holding records counted before
 * (an earlier delivery of the batch, or of part of it) writes nothing; it is counted again without
 * them. Throws CountConflict when DynamoDB kept cancelling a run: what was counted stays counted
 * and marked, and the rest is counted when the batch is delivered again.
 */
async function countChanges(deps: Deps, changes: readonly StreamChange[]): Promise<BatchCount> {
  const now = deps.clock.now();
  // A record once, even if a delivery repeats it: a transaction may name its mark only once.
  const once = [...new Map(changes.map((change) => [change.eventId, change])).values()];
  const counting = once.filter((change) => counts(change, deps.db.table, now));
  const result: BatchCount = { counted: 0, seen: 0, ignored: once.length - counting.length };
  for (const run of runs(deps.db.table, counting, now)) {
    let pending = run;
    while (pending.changes.length > 0) {
      const outcome = await countOnce(
        deps.db,
        { eventIds: pending.changes.map((change) => change.eventId), now },
        pending.writes,
      );
      if (outcome.outcome === 'conflict') throw new CountConflict('counting a batch kept conflicting');
      if (outcome.outcome === 'counted') {
        result.counted += pending.changes.length;
        break;
      }
      const seen = new Set(outcome.eventIds);
      result.seen += seen.size;
      const rest = pending.changes.filter((change) => !seen.has(change.eventId));
      pending = { changes: rest, writes: counterWrites(deps.db.table, rest, now) };
    }
  }
  return result;
}

/**
 * The partitions whose items the statistics count (users and their sessions, organizations): the
 * stack's event filter and the local reader deliver only their records.
 */
export const COUNTED_PARTITIONS = ['USER#', 'ORG#'] as const;

/** Whether a stream record is of a partition the statistics count. */
export const ofCountedPartition = (record: StreamEvent['Records'][number]): boolean =>
  COUNTED_PARTITIONS.some((prefix) => record.dynamodb?.Keys?.pk?.S?.startsWith(prefix));

/** Records per delivery at most: the stack's event source mapping and the local reader both. */
export const AGGREGATOR_BATCH_SIZE = 100;

/**
 * One delivery of the stream: counted, and logged with what it held. A failure fails the
 * delivery, which the event source mapping retries (docs/operations.md, "Statistics lag").
 */
export async function aggregate(deps: Deps, event: StreamEvent): Promise<BatchCount> {
  const count = await countChanges(deps, changesOf(event));
  deps.logger.log('info', 'statistics counted', { records: event.Records.length, ...count });
  return count;
}
