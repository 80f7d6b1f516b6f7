import * as z from 'zod/mini';

/** `YYYY-MM-DD` naming a day that exists (`2026-02-30` does not). */
const isDay = (text: string) => {
  if (!/^\d{4}-\d{2}-\d{2}$/.test(text)) return false;
  const day = new Date(`${text}T00:00:00Z`);
  return !Number.isNaN(day.getTime()) && day.toISOString().startsWith(text);
};

/** The longest range, in days, both ends included (docs/api.md, Statistics). */
export const MAX_RANGE_DAYS = 90;
export const RANGE_RULE = `from and to span at most ${MAX_RANGE_DAYS} days, both included`;

/**
 * A UTC calendar day, described as JSON Schema's `date` format (RFC 3339 full-date,
 * https://json-schema.org/draft/2020-12/json-schema-validation#section-7.3.1) wherever the
 * contract is published: the OpenAPI document and the MCP tool's input schema.
 */
const day = (description: string) =>
  z
    .string()
    .check(z.refine(isDay, { message: 'a date is YYYY-MM-DD, a day that exists' }))
    .register(z.globalRegistry, { format: 'date', description });

/** The range of `GET /applications/{applicationId}/statistics`; its defaults need the clock (statistics.ts). */
export const StatisticsQuery = z.object({
  from: z.optional(day(`First UTC day, YYYY-MM-DD (default: 29 days before to); ${RANGE_RULE}.`)),
  to: z.optional(day(`Last UTC day, YYYY-MM-DD (default: today); ${RANGE_RULE}.`)),
});
