/**
 * The owner dashboard (docs/dashboard.md): one function serves the console's page and its files.
 *
 * Each route is a module of its own in `dashboard/`, which its handler imports alone, so a route's
 * bundle holds its own entry and no other; this table lists them, in order, for the one table
 * (shared/routes.ts).
 */

import type { RouteSpec } from '../route-spec.ts';
import { dashboard } from './dashboard/dashboard.ts';

export const dashboardRoutes = { dashboard } as const satisfies Record<string, RouteSpec>;
