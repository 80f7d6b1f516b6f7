import {
  Client,
  type OAuthDiscoveryState,
  type StoredOAuthClientInformation,
  type StoredOAuthTokens,
  StreamableHTTPClientTransport,
  UnauthorizedError,
} from '@modelcontextprotocol/client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TestApp } from '../support/app.ts';
import { ALL_TOOLS, everyToolCall, READ_TOOLS } from '../support/mcp.ts';
import { type McpClientWorld, startMcpClientWorld } from '../support/mcp-e2e.ts';
import { MemoryOAuthProvider } from '../support/mcp-oauth-provider.ts';
import {
  type AuthorizationAnswer,
  authorizeInBrowser,
  type Browser,
  newBrowser,
} from '../support/oauth-flow.ts';
import { addSignedInMember } from '../support/tenancy.ts';

/**
 * The official MCP client (`@modelcontextprotocol/client` 2.x, revision 2026-07-28) end to end
 * against the local runtime (docs/mcp.md, "Connecting a client"): given only the endpoint URL
 * `<ISSUER>/mcp/<applicationId>`, it meets the 401, discovers the protected resource and the
 * authorization server, and builds the authorization URL; the user's side (sign-in bridge and
 * consent) is driven over HTTP by test/support/oauth-flow.ts; the client exchanges the code and
 * calls tools. The service listens on a known port and its ISSUER is that origin, so every URL the
 * metadata names is one the client reaches.
 */

let world: McpClientWorld;
let app: TestApp;
let owned: McpClientWorld['owned'];
let member: Awaited<ReturnType<typeof addSignedInMember>>;
let endUser: McpClientWorld['endUser'];
let clientId: string;
let redirectUri: string;
let endpoint: URL;

beforeAll(async () => {
  // The client's loopback redirect URI is never loaded: the flow driver stops at the redirect to it.
  world = await startMcpClientWorld({ name: 'E2E Agent', path: '/client.json', callbackPath: '/callback' });
  ({ app, owned, endUser, clientId, redirectUri, endpoint } = world);
  member = await addSignedInMember(app, owned.owner.token, owned.organizationId, 'member');
}, 60_000);
afterAll(() => world?.close());

/** The 2.x client's provider (test/support/mcp-oauth-provider.ts). */
class TestOAuthProvider extends MemoryOAuthProvider<
  StoredOAuthTokens,
  StoredOAuthClientInformation,
  OAuthDiscoveryState
> {}

/** What the endpoint answered the client: each status with its `WWW-Authenticate` challenge. */
interface Seen {
  status: number;
  challenge: string | null;
}

/** The transport's fetch, recording the endpoint's answers (the OAuth requests pass unrecorded). */
const recording =
  (seen: Seen[]) =>
  async (url: string | URL, init?: RequestInit): Promise<Response> => {
    const response = await fetch(url, init);
    if (String(url) === endpoint.href) {
      seen.push({ status: response.status, challenge: response.headers.get('www-authenticate') });
    }
    return response;
  };

const newClient = () =>
  new Client(
    { name: 'doorcode-e2e', version: '1.0.0' },
    { versionNegotiation: { mode: { pin: '2026-07-28' } } },
  );

/**
 * The user's browser answers the authorization URL the provider captured; the callback's `state`
 * must be the one sent (the SDK leaves that check to its caller), then `finishAuth` exchanges the
 * code (checking `iss` against the recorded issuer first).
 */
async function completeAuthorization(
  provider: TestOAuthProvider,
  transport: StreamableHTTPClientTransport,
  email: string,
  browser: Browser,
): Promise<AuthorizationAnswer> {
  if (!provider.authorizationUrl) throw new Error('the client built no authorization URL');
  const answer = await authorizeInBrowser(app, provider.authorizationUrl, email, { browser });
  expect(answer.state).toBe(provider.sentState);
  await transport.finishAuth(answer.params);
  return answer;
}

/**
 * Connects as the SDK documents it: the first request meets the 401, the client discovers and
 * hands over an authorization URL (`UnauthorizedError`), the user authorizes, `finishAuth`, and a
 * fresh transport with the same provider connects with the token.
 */
async function connectWithOAuth(
  provider: TestOAuthProvider,
  email: string,
  browser: Browser,
  seen: Seen[] = [],
) {
  const first = new StreamableHTTPClientTransport(endpoint, {
    authProvider: provider,
    fetch: recording(seen),
  });
  const probe = newClient();
  const refused = await probe
    .connect(first)
    .then(() => probe.listTools())
    .then(
      () => null,
      (error: unknown) => error,
    );
  expect(refused).toBeInstanceOf(UnauthorizedError);
  const answer = await completeAuthorization(provider, first, email, browser);
  await probe.close();
  const transport = new StreamableHTTPClientTransport(endpoint, {
    authProvider: provider,
    fetch: recording(seen),
  });
  const client = newClient();
  await client.connect(transport);
  return { client, transport, answer };
}

const toolNames = async (client: Client) => (await client.listTools()).tools.map((tool) => tool.name).sort();

describe('the official MCP client, given only the endpoint URL', () => {
  it('a member discovers, authorizes through the bridge and consent, lists six tools and calls a read tool', async () => {
    // Prepare
    const provider = new TestOAuthProvider(clientId, redirectUri);
    const seen: Seen[] = [];

    // Act
    const { client, answer } = await connectWithOAuth(provider, member.email, newBrowser(), seen);
    const tools = await toolNames(client);
    const application = await client.callTool({ name: 'auth_get_application', arguments: {} });
    await client.close();

    // Assess: the first call met the 401 naming the endpoint's resource metadata, and the
    // authorization went to this service, for this endpoint, with PKCE S256.
    expect(seen[0]).toEqual({
      status: 401,
      challenge: `Bearer resource_metadata="${app.url}/.well-known/oauth-protected-resource/mcp/${owned.applicationId}"`,
    });
    const asked = provider.authorizationUrl as URL;
    expect(`${asked.origin}${asked.pathname}`).toBe(`${app.url}/oauth/authorize`);
    expect(asked.searchParams.get('client_id')).toBe(clientId);
    expect(asked.searchParams.get('resource')).toBe(endpoint.href);
    expect(asked.searchParams.get('code_challenge_method')).toBe('S256');
    expect(answer.iss).toBe(app.deps.config.ISSUER);
    // A member's role narrows whatever was asked to auth:read.
    expect(provider.tokens()?.scope).toBe('auth:read');
    expect(tools).toEqual(READ_TOOLS);
    expect(application.isError).not.toBe(true);
    expect(application.structuredContent).toMatchObject({ id: owned.applicationId, name: 'Acme Notes' });
  }, 60_000);

  it('an owner who first asked auth:read meets insufficient_scope on the write tool, authorizes again and succeeds', async () => {
    // Prepare: the owner's client asks only auth:read at first.
    const provider = new TestOAuthProvider(clientId, redirectUri, 'auth:read');
    const browser = newBrowser();
    const seen: Seen[] = [];
    const { client, transport } = await connectWithOAuth(provider, owned.owner.email, browser, seen);
    const before = await toolNames(client);
    const firstUrl = provider.authorizationUrl as URL;
    const revoke = { name: 'auth_revoke_user_sessions', arguments: { userId: endUser.body.user.id } };

    // Act: the write tool answers 403 insufficient_scope; the SDK's step-up asks for a new
    // authorization (a URL handed to the provider, then UnauthorizedError); the user consents again.
    const from = seen.length;
    const refused = await client.callTool(revoke).then(
      () => null,
      (error: unknown) => error,
    );
    const stepUp = seen.slice(from);
    const stepUpUrl = provider.authorizationUrl as URL;
    await completeAuthorization(provider, transport, owned.owner.email, browser);
    const revoked = await client.callTool(revoke);
    const after = await toolNames(client);
    await client.close();

    // Assess
    expect(firstUrl.searchParams.get('scope')).toBe('auth:read');
    expect(before).toEqual(READ_TOOLS);
    expect(refused).toBeInstanceOf(UnauthorizedError);
    expect(stepUp).toHaveLength(1);
    expect(stepUp[0]?.status).toBe(403);
    expect(stepUp[0]?.challenge).toMatch(
      /^Bearer error="insufficient_scope", scope="auth:write", resource_metadata="/,
    );
    expect(stepUpUrl).not.toBe(firstUrl);
    expect(stepUpUrl.searchParams.get('scope')?.split(' ').sort()).toEqual(['auth:read', 'auth:write']);
    expect(provider.tokens()?.scope?.split(' ').sort()).toEqual(['auth:read', 'auth:write']);
    expect(revoked.isError).not.toBe(true);
    expect(revoked.structuredContent).toMatchObject({ revoked: true });
    expect((revoked.structuredContent as { count: number }).count).toBeGreaterThanOrEqual(1);
    expect(after).toEqual(ALL_TOOLS);
  }, 60_000);

  it('an owner lists all seven tools and calls each', async () => {
    // Prepare
    const provider = new TestOAuthProvider(clientId, redirectUri);
    const { client } = await connectWithOAuth(provider, owned.owner.email, newBrowser());

    // Act
    const tools = await toolNames(client);
    const results = [];
    for (const call of everyToolCall(endUser.body.user.id)) results.push(await client.callTool(call));
    await client.close();

    // Assess
    expect(tools).toEqual(ALL_TOOLS);
    expect(results.map((result) => result.isError ?? false)).toEqual(ALL_TOOLS.map(() => false));
    expect(results.every((result) => typeof result.structuredContent === 'object')).toBe(true);
  }, 60_000);
});
