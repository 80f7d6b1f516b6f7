import { ProtectedResourceMetadata, ProtectedResourcePath } from '../../contracts/oauth-discovery.ts';
import type { RouteSpec } from '../../route-spec.ts';

export const oauthProtectedResourceOfApplication = {
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
} as const satisfies RouteSpec;
