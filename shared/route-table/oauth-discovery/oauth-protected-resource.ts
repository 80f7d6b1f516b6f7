import { ProtectedResourceMetadata } from '../../contracts/oauth-discovery.ts';
import type { RouteSpec } from '../../route-spec.ts';

export const oauthProtectedResource = {
  method: 'GET',
  path: '/.well-known/oauth-protected-resource',
  entry: 'functions/well-known/oauth-protected-resource.ts',
  description: 'Read the RFC 9728 metadata of the MCP resource `<ISSUER>/mcp`.',
  errorStyle: 'app',
  auth: 'none',
  access: {},
  contract: { responses: { 200: ProtectedResourceMetadata }, errors: [] },
} as const satisfies RouteSpec;
