/**
 * OAuth discovery (docs/api.md "OAuth discovery"; RFC 8414, RFC 9728).
 *
 * Each route is a module of its own in `oauth-discovery/`, which its handler imports alone, so a route's
 * bundle holds its own entry and no other; this table lists them, in order, for the one table
 * (shared/routes.ts).
 */

import type { RouteSpec } from '../route-spec.ts';
import { oauthAuthorizationServer } from './oauth-discovery/oauth-authorization-server.ts';
import { oauthProtectedResource } from './oauth-discovery/oauth-protected-resource.ts';
import { oauthProtectedResourceOfApplication } from './oauth-discovery/oauth-protected-resource-of-application.ts';

export const oauthDiscoveryRoutes = {
  oauthAuthorizationServer,
  oauthProtectedResource,
  oauthProtectedResourceOfApplication,
} as const satisfies Record<string, RouteSpec>;
