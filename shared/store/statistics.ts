import { GetCommand } from '@aws-sdk/lib-dynamodb';
import * as z from 'zod/mini';
import type { Item } from './batch.ts';
import { readItems } from './batch.ts';
import type { Db } from './db.ts';
import { afterPrefix, decoder } from './decode.ts';
import type { TransactItem } from './errors.ts';
import { queryAll } from './items.ts';
import { keys } from './keys.ts';
import { transactWrite } from './transact.ts';

/**
 * An application's counters (docs/data-model.md, Statistics). No request writes them: the statistics
 * aggregator (shared/tenancy/statistics-stream.ts) adds what the table's stream shows changed, by
 * `ADD` updates, in one TransactWriteItems with a mark of each stream record counted, so a record
 * delivered twice (a retried batch) counts once. `ADD` creates a missing item or attribute as zero first,
 * so no counter is ever initialised.
 * - `DAY#<date>`: `newUsers`, `signIns` of that UTC day, kept for good;
 * - `SESSIONS#<date>`: `sessions`, the sessions whose last issue or refresh fell on that UTC day and
 *   that still exist; `SESSIONS#<date>T<HH>`: `m<HHMM>`, the same per UTC minute of that hour. Both
 *   expire (TTL) once no statistics read them. Items written before the aggregator hold the minutes
 *   of the whole day in the day item; the reads below take minutes from both.
 * - `TOTALS`: `users` and `organizations` counted since the aggregator, added to the application
 *   item's own `userCount` and `organizationCount` of the time before.
 */

/** A day's counters: each absent until its first `ADD`. */
const dayCounters = decoder(
  'statistics day',
  z.object({ newUsers: z.optional(z.number()), signIns: z.optional(z.number()) }),
);
const totalsCounters = decoder(
  'statistics totals',
  z.object({ users: z.optional(z.number()), organizations: z.optional(z.number()) }),
);

/** What the aggregator adds to one application's counters; a zero or missing entry adds nothing. */
export interface CountDeltas {
  /** By UTC day `YYYY-MM-DD`. */
  newUsers: Map<string, number>;
  signIns: Map<string, number>;
  /** Sessions by the UTC minute they are counted in, `YYYY-MM-DDTHH:MM`. */
  sessions: Map<string, number>;
  users: number;
  organizations: number;
}

export const noDeltas = (): CountDeltas => ({
  newUsers: new Map(),
  signIns: new Map(),
  sessions: new Map(),
  users: 0,
  organizations: 0,
});

/** A session counter item is read for 8 days (shared/tenancy/statistics.ts); it expires 2 days later. */
const SESSION_COUNTER_DAYS = 10;
const DAY_SECONDS = 86_400;
const expiryOf = (date: string) =>
  Date.parse(`${date}T00:00:00Z`) / 1000 + SESSION_COUNTER_DAYS * DAY_SECONDS;

const minuteAttribute = (countedIn: string) => `m${countedIn.slice(11, 13)}${countedIn.slice(14, 16)}`;

/** `SET` of the TTL where the item has one, `ADD` of every nonzero delta; nothing when all are zero. */
function addUpdate(
  table: string,
  key: { pk: string; sk: string },
  deltas: Map<string, number>,
  expiresAt?: number,
): TransactItem[] {
  const changed = [...deltas].filter(([, delta]) => delta !== 0);
  if (changed.length === 0) return [];
  const set = expiresAt === undefined ? '' : 'SET expiresAt = :expiresAt ';
  return [
    {
      Update: {
        TableName: table,
        Key: key,
        UpdateExpression: `${set}ADD ${changed.map((_, i) => `#a${i} :a${i}`).join(', ')}`,
        ExpressionAttributeNames: Object.fromEntries(changed.map(([name], i) => [`#a${i}`, name])),
        ExpressionAttributeValues: {
          ...Object.fromEntries(changed.map(([, delta], i) => [`:a${i}`, delta])),
          ...(expiresAt === undefined ? {} : { ':expiresAt': expiresAt }),
        },
      },
    },
  ];
}

const bump = (deltas: Map<string, Map<string, number>>, key: string, name: string, delta: number) => {
  const item = deltas.get(key) ?? new Map<string, number>();
  item.set(name, (item.get(name) ?? 0) + delta);
  deltas.set(key, item);
};

/** The Updates adding `deltas` to an application's counters: at most one per item. */
export function countWrites(table: string, applicationId: string, deltas: CountDeltas): TransactItem[] {
  const days = new Map<string, Map<string, number>>();
  for (const [date, n] of deltas.newUsers) bump(days, date, 'newUsers', n);
  for (const [date, n] of deltas.signIns) bump(days, date, 'signIns', n);
  const sessionDays = new Map<string, Map<string, number>>();
  const hours = new Map<string, Map<string, number>>();
  for (const [countedIn, n] of deltas.sessions) {
    bump(sessionDays, countedIn.slice(0, 10), 'sessions', n);
    bump(hours, countedIn.slice(0, 13), minuteAttribute(countedIn), n);
  }
  return [
    ...[...days].flatMap(([date, day]) => addUpdate(table, keys.statsDay(applicationId, date), day)),
    ...[...sessionDays].flatMap(([date, day]) =>
      addUpdate(table, keys.statsSessions(applicationId, date), day, expiryOf(date)),
    ),
    ...[...hours].flatMap(([hour, minutes]) =>
      addUpdate(table, keys.statsSessionHour(applicationId, hour), minutes, expiryOf(hour.slice(0, 10))),
    ),
    ...addUpdate(
      table,
      keys.statsTotals(applicationId),
      new Map([
        ['users', deltas.users],
        ['organizations', deltas.organizations],
      ]),
    ),
  ];
}

/** A stream record lapses after 24 hours; its counted mark is kept a day longer. */
const MARK_SECONDS = 2 * DAY_SECONDS;

/** `counted`; `seen`: these of the records were counted before (nothing written); `conflict`: nothing written. */
export type CountOutcome =
  | { outcome: 'counted' }
  | { outcome: 'seen'; eventIds: string[] }
  | { outcome: 'conflict' };

/**
 * Adds `writes` (the counters of the stream records `eventIds`) in ONE TransactWriteItems with a
 * mark per record, each Put only if the record is not marked yet: of two deliveries of a record,
 * exactly one counts it.
 */
export async function countOnce(
  db: Db,
  run: { eventIds: readonly string[]; now: number },
  writes: TransactItem[],
): Promise<CountOutcome> {
  const expiresAt = Math.floor(run.now / 1000) + MARK_SECONDS;
  const marks: TransactItem[] = run.eventIds.map((eventId) => ({
    Put: {
      TableName: db.table,
      Item: { ...keys.countedRecord(eventId), expiresAt },
      ConditionExpression: 'attribute_not_exists(pk)',
    },
  }));
  const written = await transactWrite(db, [...marks, ...writes]);
  if (written.outcome === 'written') return { outcome: 'counted' };
  if (written.outcome === 'conflict') return written;
  const seen = run.eventIds.filter((_, index) => written.failed.includes(index));
  if (seen.length === 0) {
    throw new Error(`counter updates carry no condition, yet ${written.failed.join(', ')} failed`);
  }
  return { outcome: 'seen', eventIds: seen };
}

export interface DayCounts {
  date: string;
  newUsers: number;
  signIns: number;
}

/** The day items of `from`..`to` (inclusive) that exist, in date order: ONE Query (at most 90 small items). */
export async function readDayCounts(
  db: Db,
  applicationId: string,
  range: { from: string; to: string },
): Promise<DayCounts[]> {
  const items = await queryAll(db, {
    KeyConditionExpression: 'pk = :pk AND sk BETWEEN :from AND :to',
    ExpressionAttributeValues: {
      ':pk': keys.statsDay(applicationId, range.from).pk,
      ':from': keys.statsDay(applicationId, range.from).sk,
      ':to': keys.statsDay(applicationId, range.to).sk,
    },
    ConsistentRead: true,
  });
  return items.map((item) => {
    const counters = dayCounters(item);
    return {
      date: afterPrefix(item.sk, keys.statsDay(applicationId, '').sk),
      newUsers: counters.newUsers ?? 0,
      signIns: counters.signIns ?? 0,
    };
  });
}

interface SessionBucket {
  /** Sessions counted under the day. */
  sessions: number;
  /** Sessions counted under each minute of the day, by `HH:MM`. */
  byMinute: Map<string, number>;
}

/** The minutes of a session counter item: `m<HHMM>` attributes (hour items; day items of before). */
const addMinutes = (byMinute: Map<string, number>, item: Item | undefined) => {
  for (const [name, value] of Object.entries(item ?? {})) {
    if (typeof value !== 'number' || !/^m\d{4}$/.test(name)) continue;
    const minute = `${name.slice(1, 3)}:${name.slice(3, 5)}`;
    byMinute.set(minute, (byMinute.get(minute) ?? 0) + value);
  }
};

const HOURS = Array.from({ length: 24 }, (_, hour) => String(hour).padStart(2, '0'));

/** What ONE BatchGetItem (consistent) of the statistics reads beside the day range. */
export interface SessionCounts {
  /** The `sessions` of each of `dates`, and the minutes of `minutesOf` (one of them). */
  buckets: Map<string, SessionBucket>;
  /** Counted since the aggregator began; the application item holds the counts of before. */
  totals: { users: number; organizations: number };
}

/**
 * The session counters of `dates` with the minutes of `minutesOf` (its 24 hour items), and the
 * totals: at most 8 + 24 + 1 keys, in ONE BatchGetItem.
 */
export async function readSessionCounts(
  db: Db,
  applicationId: string,
  dates: readonly string[],
  minutesOf: string,
): Promise<SessionCounts> {
  const found: Record<string, Item | undefined> = await readItems(db, {
    ...Object.fromEntries(dates.map((date) => [date, keys.statsSessions(applicationId, date)])),
    ...Object.fromEntries(
      HOURS.map((hour) => [
        `${minutesOf}T${hour}`,
        keys.statsSessionHour(applicationId, `${minutesOf}T${hour}`),
      ]),
    ),
    totals: keys.statsTotals(applicationId),
  });
  const buckets = new Map<string, SessionBucket>();
  for (const date of dates) {
    const item = found[date];
    const byMinute = new Map<string, number>();
    if (date === minutesOf) {
      addMinutes(byMinute, item);
      for (const hour of HOURS) addMinutes(byMinute, found[`${date}T${hour}`]);
    }
    buckets.set(date, { sessions: typeof item?.sessions === 'number' ? item.sessions : 0, byMinute });
  }
  return { buckets, totals: totalsOf(found.totals) };
}

const totalsOf = (item: Item | undefined) => {
  const counters = item ? totalsCounters(item) : {};
  return { users: counters.users ?? 0, organizations: counters.organizations ?? 0 };
};

/** The totals counted since the aggregator began: ONE GetItem (consistent). */
export async function readTotals(db: Db, applicationId: string): Promise<SessionCounts['totals']> {
  const { Item } = await db.client.send(
    new GetCommand({ TableName: db.table, Key: keys.statsTotals(applicationId), ConsistentRead: true }),
  );
  return totalsOf(Item);
}
