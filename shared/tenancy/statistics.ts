import type { Deps } from '../deps.ts';
import { fail } from '../errors.ts';
import { SESSION_TTL_SECONDS } from '../identity/session-token.ts';
import { readDayCounts, readSessionCounts, readTotals } from '../store/statistics.ts';
import type { Application } from './applications.ts';
import { MAX_RANGE_DAYS, RANGE_RULE } from './statistics-query.ts';

/**
 * Insights (docs/api.md, "Insights: statistics"): an application's statistics, from the counters the
 * statistics aggregator keeps (shared/tenancy/statistics-stream.ts), never by reading users or
 * sessions. Days are UTC days.
 */

/**
 * How long, in normal operation, a change may take to reach the statistics: the stream delivers
 * within a second or two (its batching window, lib/statistics-aggregator.ts), and the
 * StatisticsLag alarm fires when the aggregator falls further behind than this (docs/operations.md).
 */
export const STATISTICS_MAX_DELAY_SECONDS = 60;

/**
 * The application's users and tenant organizations: its own counters of before the aggregator,
 * plus what the aggregator has counted since (docs/data-model.md, Statistics).
 */
export async function applicationTotals(deps: Deps, application: Application) {
  return withTotals(application, await readTotals(deps.db, application.id));
}

const withTotals = (application: Application, counted: { users: number; organizations: number }) => ({
  users: Math.max(0, application.userCount + counted.users),
  organizations: Math.max(0, application.organizationCount + counted.organizations),
});

/** Without `from`, the range is this many days ending with `to`. */
const DEFAULT_RANGE_DAYS = 30;
const DAY_MS = 86_400_000;
/** A session lives 7 days after its last issue or refresh, to the second (docs/data-model.md, Statistics). */
const SESSION_DAYS = (SESSION_TTL_SECONDS * 1000) / DAY_MS;

const dayOf = (ms: number) => new Date(ms).toISOString().slice(0, 10);
const addDays = (day: string, days: number) => dayOf(Date.parse(`${day}T00:00:00Z`) + days * DAY_MS);
const daysBetween = (from: string, to: string) =>
  Math.round((Date.parse(`${to}T00:00:00Z`) - Date.parse(`${from}T00:00:00Z`)) / DAY_MS);

/**
 * Whether the statistics still read the session counter of `countedIn` (a session's counted minute):
 * they read the days from SESSION_DAYS before today on (`readStatistics`). A session counted before
 * them has expired, cannot be refreshed, and its count is never read again: the aggregator does not
 * uncount it when it ends (shared/tenancy/statistics-stream.ts).
 */
export const stillCounted = (countedIn: string, now: number): boolean =>
  countedIn.slice(0, 10) >= addDays(dayOf(now), -SESSION_DAYS);

/** A 400 like the chain's own validation answer, naming the query field at fault. */
const invalidQuery = (field: 'from' | 'to', message: string) =>
  fail('invalidRequest', 'The request query is not valid', { issues: [{ path: field, message }] });

/** `to` defaults to today, `from` to 29 days before `to`; at most 90 days, both included. */
function rangeOf(query: { from?: string | undefined; to?: string | undefined }, today: string) {
  const to = query.to ?? today;
  const from = query.from ?? addDays(to, 1 - DEFAULT_RANGE_DAYS);
  if (from > to) throw invalidQuery('from', 'from must not be after to');
  if (daysBetween(from, to) + 1 > MAX_RANGE_DAYS) {
    throw invalidQuery(query.to ? 'to' : 'from', RANGE_RULE);
  }
  return { from, to };
}

/**
 * Active sessions now, from the session counters of the last 8 days. A session is counted under the
 * UTC minute of its last issue or refresh, and ends exactly 7 days later (or when revoked, which
 * uncounts it). So every session counted in the last 7 days (today included) is active, and of the
 * day before them only the minutes from the current minute of day on: those ending now or later.
 * Precision: sessions ending within the current minute are counted until it ends (at most 59 s late).
 */
function activeSessions(
  buckets: Map<string, { sessions: number; byMinute: Map<string, number> }>,
  dates: readonly string[],
  minuteNow: string,
): number {
  const [edge, ...whole] = dates;
  let active = whole.reduce((sum, date) => sum + (buckets.get(date)?.sessions ?? 0), 0);
  for (const [minute, count] of edge ? (buckets.get(edge)?.byMinute ?? []) : []) {
    if (minute >= minuteNow) active += count;
  }
  return active;
}

/** `GET /applications/{applicationId}/statistics`: one Query (the range) and one BatchGetItem (sessions, totals). */
export async function readStatistics(
  deps: Deps,
  application: Application,
  query: { from?: string | undefined; to?: string | undefined },
) {
  const applicationId = application.id;
  const now = deps.clock.now();
  const today = dayOf(now);
  const range = rangeOf(query, today);
  const counted = new Map((await readDayCounts(deps.db, applicationId, range)).map((day) => [day.date, day]));
  // The day before the session window, then the window itself, today last.
  const sessionDates = Array.from({ length: SESSION_DAYS + 1 }, (_, i) => addDays(today, i - SESSION_DAYS));
  const [edge = today] = sessionDates;
  const { buckets, totals } = await readSessionCounts(deps.db, applicationId, sessionDates, edge);
  const days = Array.from({ length: daysBetween(range.from, range.to) + 1 }, (_, i) => {
    const date = addDays(range.from, i);
    const found = counted.get(date);
    return { date, newUsers: found?.newUsers ?? 0, signIns: found?.signIns ?? 0 };
  });
  return {
    range,
    totals: {
      users: withTotals(application, totals).users,
      newUsers: days.reduce((sum, day) => sum + day.newUsers, 0),
      signIns: days.reduce((sum, day) => sum + day.signIns, 0),
      activeSessions: activeSessions(buckets, sessionDates, new Date(now).toISOString().slice(11, 16)),
    },
    days,
    freshness: { maxDelaySeconds: STATISTICS_MAX_DELAY_SECONDS },
  };
}
