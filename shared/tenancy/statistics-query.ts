import * as z from 'zod/mini';

/** `YYYY-MM-DD` naming a day that exists (`2026-02-30` does not). */
const isDay = (text: string) => {
  if (!/^\d{4}-\d{2}-\d{2}$/.test(text)) return false;
  const day = new Date(`${text}T00:00:00Z`);
  return !Number.isNaN(day.getTime()) && day.toISOString().startsWith(text);
};

/** A UTC calendar day. */
const Day = z.string().check(z.refine(isDay, { message: 'a date is YYYY-MM-DD, a day that exists' }));

/** The range of `GET /applications/{applicationId}/statistics`; its defaults need the clock (statistics.ts). */
export const StatisticsQuery = z.object({ from: z.optional(Day), to: z.optional(Day) });
