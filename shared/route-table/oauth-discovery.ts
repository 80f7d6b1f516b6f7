/**
 * OAuth discovery (docs/api.md "OAuth discovery"; RFC 8414, RFC 9728). Spread into the one table
 * (shared/routes.ts).
 */
import {
  AuthorizationServerMetadata,
  ProtectedResourceMetadata,
  ProtectedResourcePath,
} from '../contracts/oauth-discovery.ts';
import type { RouteSpec } from '../route-spec.ts';

export const oauthDiscoveryRoutes = {
  oauthAuthorizationServer: {
    method: 'GET',
    path: '/.well-known/oauth-authorization-server',
    entry: 'functions/well-known/oauth-authorization-server.ts',
    errorStyle: 'app',
    auth: 'none',
    access: {},
    contract: { responses: { 200: AuthorizationServerMetadata }, errors: [] },
  },
  oauthProtectedResource: {
    method: 'GET',
    path: '/.well-known/oauth-protected-resource',
    entry: 'functions/well-known/oauth-protected-resource.ts',
    errorStyle: 'app',
    auth: 'none',
    access: {},
    contract: { responses: { 200: ProtectedResourceMetadata }, errors: [] },
  },
  oauthProtectedResourceOfApplication: {
    method: 'GET',
    path: '/.well-known/oauth-protected-resource/mcp/{id}',
    entry: 'functions/well-known/oauth-protected-resource-application.ts',
    errorStyle: 'app',
    auth: 'none',
    access: { table: 'read', items: ['application'] },
    contract: {
      params: ProtectedResourcePath,
      responses: { 200: ProtectedResourceMetadata },
      errors: ['invalidRequest', 'notFound'],
    },
  },
} as const satisfies Record<string, RouteSpec>;
