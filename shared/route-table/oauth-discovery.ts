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
    description:
      'Read the RFC 8414 authorization server metadata. Its endpoints, grants, PKCE method and scopes.',
    errorStyle: 'app',
    auth: 'none',
    access: {},
    contract: { responses: { 200: AuthorizationServerMetadata }, errors: [] },
  },
  oauthProtectedResource: {
    method: 'GET',
    path: '/.well-known/oauth-protected-resource',
    entry: 'functions/well-known/oauth-protected-resource.ts',
    description: 'Read the RFC 9728 metadata of the MCP resource `<ISSUER>/mcp`.',
    errorStyle: 'app',
    auth: 'none',
    access: {},
    contract: { responses: { 200: ProtectedResourceMetadata }, errors: [] },
  },
  oauthProtectedResourceOfApplication: {
    method: 'GET',
    path: '/.well-known/oauth-protected-resource/mcp/{id}',
    entry: 'functions/well-known/oauth-protected-resource-application.ts',
    description:
      "Read the RFC 9728 metadata of an application's MCP endpoint. The `resource` to ask a token for; 404 when no application has that id.",
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
