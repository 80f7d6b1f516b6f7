import * as z from 'zod/mini';

/** One UTC day of an application's statistics. */
const StatisticsDay = z.object({ date: z.string(), newUsers: z.int(), signIns: z.int() });

/** `GET /applications/{applicationId}/statistics` (docs/api.md, Insights: statistics). */
export const Statistics = z.object({
  range: z.object({ from: z.string(), to: z.string() }),
  totals: z.object({
    /** Every account of the application, now. */
    users: z.int(),
    /** Over the range. */
    newUsers: z.int(),
    signIns: z.int(),
    /** Now, whatever the range. */
    activeSessions: z.int(),
  }),
  /** Every day of the range, oldest first, zeros included. */
  days: z.array(StatisticsDay),
  /** How far behind the counts may be (docs/api.md, "Insights: statistics"). */
  freshness: z.object({
    /** In normal operation, a sign-in, refresh or sign-out is counted within this many seconds. */
    maxDelaySeconds: z.int(),
  }),
});
