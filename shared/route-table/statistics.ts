/**
 * Insights: an application's statistics (docs/api.md "Insights: statistics").
 *
 * Each route is a module of its own in `statistics/`, which its handler imports alone, so a route's
 * bundle holds its own entry and no other; this table lists them, in order, for the one table
 * (shared/routes.ts).
 */

import type { RouteSpec } from '../route-spec.ts';
import { getStatistics } from './statistics/get-statistics.ts';

export const statisticsRoutes = { getStatistics } as const satisfies Record<string, RouteSpec>;
