/**
 * The service itself: the CORS preflight, health, the signing keys and the interface description
 * (docs/api.md "Endpoints").
 *
 * Each route is a module of its own in `service/`, which its handler imports alone, so a route's
 * bundle holds its own entry and no other; this table lists them, in order, for the one table
 * (shared/routes.ts).
 */

import type { RouteSpec } from '../route-spec.ts';
import { jwks } from './service/jwks.ts';
import { openApi } from './service/open-api.ts';
import { preflight } from './service/preflight.ts';
import { root } from './service/root.ts';
import { status } from './service/status.ts';

export const serviceRoutes = { preflight, root, status, jwks, openApi } as const satisfies Record<
  string,
  RouteSpec
>;
