/**
 * API keys (docs/api.md "API keys").
 *
 * Each route is a module of its own in `api-keys/`, which its handler imports alone, so a route's
 * bundle holds its own entry and no other; this table lists them, in order, for the one table
 * (shared/routes.ts).
 */

import type { RouteSpec } from '../route-spec.ts';
import { createApiKey } from './api-keys/create-api-key.ts';
import { listApiKeys } from './api-keys/list-api-keys.ts';
import { revokeApiKey } from './api-keys/revoke-api-key.ts';

export const apiKeyRoutes = { createApiKey, listApiKeys, revokeApiKey } as const satisfies Record<
  string,
  RouteSpec
>;
