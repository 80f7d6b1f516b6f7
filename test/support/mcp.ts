import { issueAccessToken } from '../../shared/oauth/access-token.ts';
import type { Scope } from '../../shared/oauth/model.ts';
import { newId } from '../../shared/random.ts';
import { putGrant } from '../../shared/store/oauth.ts';
import { ownMcpResource } from '../../shared/tenancy/service-resources.ts';
import { TEST_ISSUER, type TestApp } from './app.ts';

const MCP_CLIENT_ID = 'https://client.example.test/oauth/metadata.json';

/**
 * A grant as consent (or a refresh) leaves it, and an access token of it, as the token route issues
 * them: `resource` is the token's audience (default the application's own MCP endpoint).
 */
export async function mcpAccessToken(
  app: TestApp,
  userId: string,
  applicationId: string,
  scopes: Scope[],
  options: { grantApplicationId?: string; resource?: string; revokedAt?: number } = {},
): Promise<string> {
  const resource = options.resource ?? ownMcpResource(TEST_ISSUER, applicationId);
  const grantId = newId(app.deps.random, 'grt');
  const now = Math.floor(app.clock.now() / 1000);
  await putGrant(app.deps.db, {
    grantId,
    userId,
    clientId: MCP_CLIENT_ID,
    clientName: 'Test client',
    applicationId: options.grantApplicationId ?? applicationId,
    resource,
    scopes,
    createdAt: now,
    lastUsedAt: now,
    ...(options.revokedAt === undefined ? {} : { revokedAt: options.revokedAt }),
  });
  const issued = await issueAccessToken(app.deps, {
    userId,
    resource,
    scopes,
    clientId: MCP_CLIENT_ID,
    grantId,
  });
  return issued.accessToken;
}

/** A `tools/call` of revision 2026-07-28 as the SDK client sends it (the per-request `_meta` envelope). */
export const toolCall = (name: string, args: Record<string, unknown> = {}, method = 'tools/call') => ({
  jsonrpc: '2.0',
  id: 1,
  method,
  params: {
    ...(method === 'tools/call' ? { name, arguments: args } : {}),
    _meta: {
      'io.modelcontextprotocol/protocolVersion': '2026-07-28',
      'io.modelcontextprotocol/clientInfo': { name: 'raw-test', version: '1.0.0' },
      'io.modelcontextprotocol/clientCapabilities': {},
    },
  },
});

/** A raw POST of one message with the transport's headers, for answers the client does not show. */
export const mcpPost = (
  app: TestApp,
  applicationId: string,
  headers: Record<string, string>,
  message: ReturnType<typeof toolCall> = toolCall('auth_get_application'),
) =>
  app.request('POST', `/mcp/${applicationId}`, {
    headers: {
      accept: 'application/json, text/event-stream',
      'mcp-protocol-version': '2026-07-28',
      'mcp-method': message.method,
      ...('name' in message.params ? { 'mcp-name': String(message.params.name) } : {}),
      ...headers,
    },
    body: message,
  });

/**
 * The six tools a member's token lists (docs/mcp.md, Tools), by name in order; an owner's also lists
 * `auth_revoke_user_sessions`. Written out rather than derived, so a test fails when the set changes.
 */
export const READ_TOOLS = [
  'auth_get_application',
  'auth_get_statistics',
  'auth_get_user',
  'auth_list_organizations',
  'auth_list_users',
  'auth_search',
];

/** All seven tools by name in order: what an owner's or admin's token lists. */
export const ALL_TOOLS = [...READ_TOOLS, 'auth_revoke_user_sessions'].sort();

/**
 * One valid call of every tool, for a client that must call them all: `userId` is an end user of
 * the application, whom the write tool signs out.
 */
export const everyToolCall = (
  userId: string,
): Array<{ name: string; arguments: Record<string, unknown> }> => [
  { name: 'auth_get_application', arguments: {} },
  { name: 'auth_get_statistics', arguments: {} },
  { name: 'auth_get_user', arguments: { userId } },
  { name: 'auth_list_organizations', arguments: { limit: 5 } },
  { name: 'auth_list_users', arguments: { limit: 5 } },
  { name: 'auth_search', arguments: { q: 'example' } },
  { name: 'auth_revoke_user_sessions', arguments: { userId } },
];
