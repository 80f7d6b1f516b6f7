/**
 * Impersonation (docs/api.md "Impersonation").
 *
 * Each route is a module of its own in `impersonation/`, which its handler imports alone, so a route's
 * bundle holds its own entry and no other; this table lists them, in order, for the one table
 * (shared/routes.ts).
 */

import type { RouteSpec } from '../route-spec.ts';
import { endImpersonation } from './impersonation/end-impersonation.ts';
import { startImpersonation } from './impersonation/start-impersonation.ts';

export const impersonationRoutes = { startImpersonation, endImpersonation } as const satisfies Record<
  string,
  RouteSpec
>;
