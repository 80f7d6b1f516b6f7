import * as z from 'zod/mini';
import type { Item } from './batch.ts';
import { readItems } from './batch.ts';
import type { Db } from './db.ts';
import { afterPrefix, decoder } from './decode.ts';
import type { TransactItem } from './errors.ts';
import { queryAll } from './items.ts';
import { keys } from './keys.ts';

/** A day's counters: each absent until its first `ADD`. */
const dayCounters = decoder(
  'statistics day',
  z.object({ newUsers: z.optional(z.number()), signIns: z.optional(z.number()) }),
);

/**
 * An application's counters (docs/data-model.md, Statistics), kept at write time by `ADD` updates
 * inside the transactions that change what they count, never computed by reading users or sessions:
 * - `DAY#<date>`: `newUsers`, `signIns` of that UTC day;
 * - `SESSIONS#<date>`: `sessions`, the sessions whose last issue or refresh fell on that UTC day and
 *   that still exist, and `m<HHMM>`, the same per UTC minute of that day;
 * `ADD` creates a missing item or attribute as zero first, so no counter is ever initialised.
 */

/** One session entering (+1) or leaving (-1) the counters of the minute it is counted in. */
export interface SessionCountChange {
  /** A session's `countedIn`: `YYYY-MM-DDTHH:MM` (UTC). */
  countedIn: string;
  delta: 1 | -1;
}

/** What one completed sign-in of an application adds. */
export interface SignInCount {
  applicationId: string;
  /** The UTC day of the sign-in, `YYYY-MM-DD`. */
  day: string;
  /** The sign-in created the account. */
  newUser: boolean;
  /** The new session's `countedIn`. */
  countedIn: string;
}

const minuteAttribute = (countedIn: string) => `m${countedIn.slice(11, 13)}${countedIn.slice(14, 16)}`;

/** `ADD` updates of one item, one `#a<n> :a<n>` pair per attribute; none when every delta is zero. */
function addUpdate(
  table: string,
  key: { pk: string; sk: string },
  deltas: Map<string, number>,
): TransactItem[] {
  const changed = [...deltas].filter(([, delta]) => delta !== 0);
  if (changed.length === 0) return [];
  return [
    {
      Update: {
        TableName: table,
        Key: key,
        UpdateExpression: `ADD ${changed.map((_, i) => `#a${i} :a${i}`).join(', ')}`,
        ExpressionAttributeNames: Object.fromEntries(changed.map(([name], i) => [`#a${i}`, name])),
        ExpressionAttributeValues: Object.fromEntries(changed.map(([, delta], i) => [`:a${i}`, delta])),
      },
    },
  ];
}

const bump = (deltas: Map<string, number>, name: string, delta: number) =>
  deltas.set(name, (deltas.get(name) ?? 0) + delta);

/**
 * The updates of the session counters for `changes`: one Update per UTC day touched (a transaction
 * may name an item once), none where the changes cancel out (a refresh within the same minute).
 */
export function sessionCountWrites(
  table: string,
  applicationId: string,
  changes: readonly SessionCountChange[],
): TransactItem[] {
  const byDay = new Map<string, Map<string, number>>();
  for (const { countedIn, delta } of changes) {
    const day = countedIn.slice(0, 10);
    const deltas = byDay.get(day) ?? new Map<string, number>();
    bump(deltas, 'sessions', delta);
    bump(deltas, minuteAttribute(countedIn), delta);
    byDay.set(day, deltas);
  }
  return [...byDay].flatMap(([day, deltas]) =>
    addUpdate(table, keys.statsSessions(applicationId, day), deltas),
  );
}

/**
 * The day's count of an account created before its first session (a social sign-in's callback;
 * docs/data-model.md, Statistics).
 */
export const newUserCountWrites = (table: string, applicationId: string, day: string): TransactItem[] =>
  addUpdate(table, keys.statsDay(applicationId, day), new Map([['newUsers', 1]]));

/** The counter updates of a completed sign-in: its day, its new session and, for a new account, the total. */
export function signInCountWrites(table: string, count: SignInCount): TransactItem[] {
  const { applicationId } = count;
  const day = new Map([['signIns', 1]]);
  if (count.newUser) day.set('newUsers', 1);
  return [
    ...addUpdate(table, keys.statsDay(applicationId, count.day), day),
    ...sessionCountWrites(table, applicationId, [{ countedIn: count.countedIn, delta: 1 }]),
  ];
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

export interface SessionBucket {
  /** Sessions counted under the day. */
  sessions: number;
  /** Sessions counted under each minute of the day, by `HH:MM`. */
  byMinute: Map<string, number>;
}

/** A day's session counters: `sessions`, and one `m<HHMM>` attribute per minute counted in. */
const bucketOf = (item: Item | undefined): SessionBucket => {
  const byMinute = new Map<string, number>();
  let sessions = 0;
  for (const [name, value] of Object.entries(item ?? {})) {
    if (typeof value !== 'number') continue;
    if (name === 'sessions') sessions = value;
    if (/^m\d{4}$/.test(name)) byMinute.set(`${name.slice(1, 3)}:${name.slice(3, 5)}`, value);
  }
  return { sessions, byMinute };
};

/** The session buckets of `dates`, in ONE BatchGetItem (consistent). */
export async function readSessionBuckets(
  db: Db,
  applicationId: string,
  dates: readonly string[],
): Promise<Map<string, SessionBucket>> {
  const found: Record<string, Item | undefined> = await readItems(
    db,
    Object.fromEntries(dates.map((date) => [date, keys.statsSessions(applicationId, date)])),
  );
  return new Map(dates.map((date) => [date, bucketOf(found[date])]));
}
