import { NoBody } from '../../contracts/common.ts';
import { McpAnswer, McpErrorAnswer, McpHeaders, McpMessage } from '../../mcp/schemas.ts';
import { bodyErrors, type RouteSpec } from '../../route-spec.ts';
import { ApplicationPath } from '../../tenancy/schemas.ts';

/** The MCP SDK's JSON-RPC bytes, passed on unparsed; their schemas are for the OpenAPI document. */
const answer = { raw: 'application/json', schema: McpAnswer } as const;

const refusal = { raw: 'application/json', schema: McpErrorAnswer } as const;

export const mcp = {
  method: 'POST',
  path: '/mcp/{applicationId}',
  entry: 'functions/mcp/post.ts',
  description:
    "Send one JSON-RPC message to the application's MCP server. Streamable HTTP, stateless, answered in JSON; the bearer is an OAuth access token for this endpoint (docs/mcp.md).",
  errorStyle: 'mcp',
  auth: 'none',
  // readwrite: the one writing tool (auth_revoke_user_sessions); publicKeys: the token's signature.
  access: {
    table: 'readwrite',
    publicKeys: true,
    // The grant (in its user's partition), the application, the caller's membership of the owning
    // organization (read on every call), and what the tools read and write: the application's users,
    // statistics and tenant organizations; revoking sessions ends impersonations and records it.
    items: [
      'user',
      'application',
      'organization',
      'applicationUsers',
      'applicationOrganizations',
      'statistics',
      'audit',
      'impersonation',
    ],
  },
  // The write tool (auth_revoke_user_sessions) records what the management route does.
  audit: ['user.sessionsRevoked', 'impersonation.ended'],
  contract: {
    params: ApplicationPath,
    headers: McpHeaders,
    body: { json: McpMessage },
    responses: { 200: answer, 202: NoBody, 400: refusal, 404: refusal, 406: refusal },
    errors: [...bodyErrors, 'unauthorized', 'forbidden'],
  },
} as const satisfies RouteSpec;
