import * as z from 'zod/mini';

/** A real calendar date, `YYYY-MM-DD` (UTC days). */
const Day = z.string().check(
  z.regex(/^\d{4}-\d{2}-\d{2}$/, 'a date is YYYY-MM-DD'),
  z.refine(
    (text: string) => {
      const day = new Date(`${text}T00:00:00Z`);
      return !Number.isNaN(day.getTime()) && day.toISOString().startsWith(text);
    },
    {
      message: 'not a calendar date',
    },
  ),
);

/** The range of `GET /applications/{applicationId}/statistics`; its defaults need the clock (statistics.ts). */
export const StatisticsQuery = z.object({ from: z.optional(Day), to: z.optional(Day) });
