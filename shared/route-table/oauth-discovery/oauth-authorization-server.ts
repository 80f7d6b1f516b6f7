import { AuthorizationServerMetadata } from '../../contracts/oauth-discovery.ts';
import type { RouteSpec } from '../../route-spec.ts';

export const oauthAuthorizationServer = {
  method: 'GET',
  path: '/.well-known/oauth-authorization-server',
  entry: 'functions/well-known/oauth-authorization-server.ts',
  description:
    'Read the RFC 8414 authorization server metadata. Its endpoints, grants, PKCE method and scopes.',
  errorStyle: 'app',
  auth: 'none',
  access: {},
  contract: { responses: { 200: AuthorizationServerMetadata }, errors: [] },
} as const satisfies RouteSpec;
