/**
 * The OAuth token endpoint and the user's connections (docs/api.md "OAuth tokens and connections").
 *
 * Each route is a module of its own in `oauth-token/`, which its handler imports alone, so a route's
 * bundle holds its own entry and no other; this table lists them, in order, for the one table
 * (shared/routes.ts).
 */

import type { RouteSpec } from '../route-spec.ts';
import { listConnections } from './oauth-token/list-connections.ts';
import { oauthRevoke } from './oauth-token/oauth-revoke.ts';
import { oauthToken } from './oauth-token/oauth-token.ts';
import { revokeConnection } from './oauth-token/revoke-connection.ts';

export const oauthTokenRoutes = {
  oauthToken,
  oauthRevoke,
  listConnections,
  revokeConnection,
} as const satisfies Record<string, RouteSpec>;
