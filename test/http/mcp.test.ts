import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TOOLS } from '../../shared/mcp/tools.ts';
import type { Scope } from '../../shared/oauth/model.ts';
import { mayAct } from '../../shared/tenancy/permissions.ts';
import { PLATFORM_ORIGIN, startTestApp, TEST_ISSUER, type TestApp } from '../support/app.ts';
import { mcpAccessToken, mcpPost, READ_TOOLS, toolCall } from '../support/mcp.ts';
import { bearer, signIn } from '../support/sign-in.ts';
import { addSignedInMember, createOwnedApplication, manage } from '../support/tenancy.ts';

let app: TestApp;
let owned: Awaited<ReturnType<typeof createOwnedApplication>>;
let other: Awaited<ReturnType<typeof createOwnedApplication>>;
let member: Awaited<ReturnType<typeof addSignedInMember>>;
let endUser: Awaited<ReturnType<typeof signIn>>;

beforeAll(async () => {
  app = await startTestApp();
  owned = await createOwnedApplication(app);
  other = await createOwnedApplication(app, 'Other Notes');
  member = await addSignedInMember(app, owned.owner.token, owned.organizationId, 'member');
  endUser = await signIn(app, undefined, { 'x-api-key': owned.publicKey });
});
afterAll(() => app.close());

const accessToken = (
  userId: string,
  scopes: Scope[],
  options: {
    applicationId?: string;
    grantApplicationId?: string;
    resource?: string;
    revokedAt?: number;
  } = {},
) => mcpAccessToken(app, userId, options.applicationId ?? owned.applicationId, scopes, options);

/** The official MCP client (revision 2026-07-28) connected with a fixed bearer. */
async function connect(token: string, applicationId = owned.applicationId) {
  const client = new Client(
    { name: 'doorcode-test', version: '1.0.0' },
    { versionNegotiation: { mode: { pin: '2026-07-28' } } },
  );
  const transport = new StreamableHTTPClientTransport(new URL(`${app.url}/mcp/${applicationId}`), {
    requestInit: { headers: bearer(token) },
  });
  await client.connect(transport);
  return client;
}

const post = (headers: Record<string, string>, message = toolCall('auth_get_application')) =>
  mcpPost(app, owned.applicationId, headers, message);

const metadata = (applicationId = owned.applicationId) =>
  `${TEST_ISSUER}/.well-known/oauth-protected-resource/mcp/${applicationId}`;

describe('POST /mcp/{applicationId} with the official MCP client', () => {
  it('lists the six read tools to a member (auth:read) and calls one', async () => {
    // Prepare
    const client = await connect(await accessToken(member.userId, ['auth:read']));

    // Act
    const listed = await client.listTools();
    const user = await client.callTool({
      name: 'auth_get_user',
      arguments: { userId: endUser.body.user.id },
    });
    await client.close();

    // Assess
    expect(listed.tools.map((tool) => tool.name).sort()).toEqual(READ_TOOLS);
    expect(listed.tools.every((tool) => tool.outputSchema !== undefined)).toBe(true);
    expect(user.isError).toBeFalsy();
    expect(user.structuredContent).toMatchObject({
      id: endUser.body.user.id,
      email: endUser.email,
      disabled: false,
    });
  });

  it('offers a member only what the permission matrix lets a member do: not the owners-only audit trail', async () => {
    // Prepare: an impersonation on record, which the management API shows owners and admins only.
    const started = await manage(
      app,
      'POST',
      `/applications/${owned.applicationId}/users/${endUser.body.user.id}/impersonate`,
      { token: owned.owner.token },
      { reason: 'Support ticket 42 investigation' },
    );
    expect(started.status).toBe(201);
    const refused = await manage(app, 'GET', `/applications/${owned.applicationId}/audit`, {
      token: member.token,
    });
    expect(refused.status).toBe(403);
    const token = await accessToken(member.userId, ['auth:read']);

    // Act
    const listed = await mcpPost(app, owned.applicationId, bearer(token), toolCall('', {}, 'tools/list'));
    const called = await mcpPost(
      app,
      owned.applicationId,
      bearer(token),
      toolCall('auth_list_impersonations'),
    );

    // Assess: every listed tool mirrors an action a member holds, and no tool reads the trail.
    expect(listed.status).toBe(200);
    for (const spec of TOOLS) {
      const shown = (listed.body.result.tools as Array<{ name: string }>).some((t) => t.name === spec.name);
      expect({ tool: spec.name, shown }).toEqual({
        tool: spec.name,
        shown: mayAct(spec.action, 'member') && spec.scope === 'auth:read',
      });
    }
    expect(JSON.stringify(called.body)).not.toContain('Support ticket 42');
    expect(called.body.error ?? called.body.result?.isError).toBeTruthy();
  });

  it('lists seven tools to an owner (auth:read auth:write), whose revoke ends the user session', async () => {
    // Prepare
    const target = await signIn(app, undefined, { 'x-api-key': owned.publicKey });
    const client = await connect(await accessToken(owned.owner.userId, ['auth:read', 'auth:write']));

    // Act
    const listed = await client.listTools();
    const revoked = await client.callTool({
      name: 'auth_revoke_user_sessions',
      arguments: { userId: target.body.user.id },
    });
    await client.close();
    const session = await app.request('GET', '/auth/session', {
      headers: { ...bearer(target.token), 'x-api-key': owned.publicKey },
    });

    // Assess
    expect(listed.tools.map((tool) => tool.name).sort()).toEqual(
      [...READ_TOOLS, 'auth_revoke_user_sessions'].sort(),
    );
    expect(revoked.structuredContent).toEqual({ revoked: true, count: 1 });
    expect(session.status).toBe(401);
  });

  it('answers an unknown user as a tool error result, not an HTTP error', async () => {
    // Prepare
    const client = await connect(await accessToken(member.userId, ['auth:read']));

    // Act
    const result = await client.callTool({ name: 'auth_get_user', arguments: { userId: 'usr_nobody' } });
    const application = await client.callTool({ name: 'auth_get_application', arguments: {} });
    await client.close();

    // Assess
    expect(result.isError).toBe(true);
    const [content] = result.content as Array<{ type: string; text: string }>;
    expect(JSON.parse(content?.text ?? '{}').error.code).toBe('NOT_FOUND');
    expect(application.structuredContent).toMatchObject({ id: owned.applicationId, name: 'Acme Notes' });
  });

  it("refuses a 91-day range in the tool's words, and says the format and the limit in its input schema", async () => {
    // Prepare
    const client = await connect(await accessToken(member.userId, ['auth:read']));

    // Act
    const listed = await client.listTools();
    const tooLong = await client.callTool({
      name: 'auth_get_statistics',
      arguments: { from: '2026-01-01', to: '2026-04-01' },
    });
    const ninety = await client.callTool({
      name: 'auth_get_statistics',
      arguments: { from: '2026-01-01', to: '2026-03-31' },
    });
    await client.close();

    // Assess
    const [content] = tooLong.content as Array<{ type: string; text: string }>;
    const { error } = JSON.parse(content?.text ?? '{}');
    expect(tooLong.isError).toBe(true);
    expect(error.message).toBe('Invalid arguments: to: from and to span at most 90 days, both included');
    expect(error.code).toBe('VALIDATION_ERROR');
    expect(ninety.isError).toBeFalsy();
    const statistics = listed.tools.find((tool) => tool.name === 'auth_get_statistics');
    const properties = statistics?.inputSchema.properties as Record<
      string,
      { format?: string; description?: string }
    >;
    for (const field of ['from', 'to']) {
      expect(properties[field]?.format).toBe('date');
      expect(properties[field]?.description).toContain('at most 90 days');
    }
  });
});

describe('POST /mcp/{applicationId} refusals', () => {
  it('401 with the resource metadata challenge and no error code without a token', async () => {
    // Act
    const response = await post({});

    // Assess
    expect(response.status).toBe(401);
    expect(response.headers['www-authenticate']).toBe(`Bearer resource_metadata="${metadata()}"`);
    expect(response.body.error.data.code).toBe('UNAUTHORIZED');
  });

  it('401 invalid_token for a token whose aud is another application’s MCP endpoint', async () => {
    // Prepare: a live grant of the other application, by its owner.
    const token = await accessToken(other.owner.userId, ['auth:read', 'auth:write'], {
      applicationId: other.applicationId,
    });

    // Act
    const response = await post(bearer(token));

    // Assess
    expect(response.status).toBe(401);
    expect(response.headers['www-authenticate']).toContain('error="invalid_token"');
    expect(response.headers['www-authenticate']).toContain(`resource_metadata="${metadata()}"`);
  });

  it('401 invalid_token for a grant of another application under this audience', async () => {
    // Prepare
    const token = await accessToken(owned.owner.userId, ['auth:read'], {
      grantApplicationId: other.applicationId,
    });

    // Act
    const response = await post(bearer(token));

    // Assess
    expect(response.status).toBe(401);
  });

  it('401 invalid_token for a session token', async () => {
    // Act
    const response = await post(bearer(owned.owner.token));

    // Assess
    expect(response.status).toBe(401);
    expect(response.headers['www-authenticate']).toContain('error="invalid_token"');
  });

  it('401 invalid_token once the token expired', async () => {
    // Prepare
    const token = await accessToken(member.userId, ['auth:read']);
    const before = await post(bearer(token));

    // Act
    app.clock.advance(3601 * 1000);
    const after = await post(bearer(token));

    // Assess
    expect(before.status).toBe(200);
    expect(after.status).toBe(401);
    expect(after.headers['www-authenticate']).toContain('error="invalid_token"');
  });

  it('401 invalid_token for a token of a revoked grant (a revoked connection)', async () => {
    // Prepare
    const token = await accessToken(member.userId, ['auth:read'], {
      revokedAt: Math.floor(app.clock.now() / 1000),
    });

    // Act
    const response = await post(bearer(token));

    // Assess
    expect(response.status).toBe(401);
    expect(response.headers['www-authenticate']).toContain('error="invalid_token"');
  });

  it('401 the same way for an application id that does not exist', async () => {
    // Act
    const response = await app.request('POST', '/mcp/app_nothing', {
      body: toolCall('auth_get_application'),
    });

    // Assess
    expect(response.status).toBe(401);
    expect(response.headers['www-authenticate']).toBe(
      `Bearer resource_metadata="${metadata('app_nothing')}"`,
    );
  });

  it('403 insufficient_scope naming auth:write when an auth:read token calls the write tool', async () => {
    // Prepare
    const token = await accessToken(member.userId, ['auth:read']);

    // Act
    const response = await post(
      bearer(token),
      toolCall('auth_revoke_user_sessions', { userId: endUser.body.user.id }),
    );

    // Assess
    expect(response.status).toBe(403);
    expect(response.headers['www-authenticate']).toBe(
      `Bearer error="insufficient_scope", scope="auth:write", resource_metadata="${metadata()}"`,
    );
  });

  it('403 for a browser Origin that is neither the service nor a platform origin; those pass', async () => {
    // Prepare
    const token = await accessToken(member.userId, ['auth:read']);

    // Act
    const foreign = await post(bearer(token, { origin: 'https://evil.example' }));
    const platform = await post(bearer(token, { origin: PLATFORM_ORIGIN }));
    const service = await post(bearer(token, { origin: TEST_ISSUER }));

    // Assess
    expect(foreign.status).toBe(403);
    expect(foreign.body.error.data.code).toBe('FORBIDDEN');
    expect([platform.status, service.status]).toEqual([200, 200]);
    // The SDK's answer leaves through the chain: our request id and CORS headers.
    expect(platform.headers['x-request-id']).toBeTruthy();
    expect(platform.headers['access-control-allow-origin']).toBe(PLATFORM_ORIGIN);
  });
});

describe('POST /mcp/{applicationId} after a membership change', () => {
  it('401 invalid_token on the next call once the admin is removed from the organization', async () => {
    // Prepare
    const admin = await addSignedInMember(app, owned.owner.token, owned.organizationId, 'admin');
    const token = await accessToken(admin.userId, ['auth:read', 'auth:write']);
    const before = await post(bearer(token));

    // Act
    const removed = await manage(
      app,
      'DELETE',
      `/organizations/${owned.organizationId}/members/${admin.userId}`,
      { token: owned.owner.token },
    );
    const after = await post(bearer(token));

    // Assess
    expect([before.status, removed.status]).toEqual([200, 204]);
    expect(after.status).toBe(401);
    expect(after.headers['www-authenticate']).toBe(
      `Bearer error="invalid_token", error_description="The access token is not valid here", resource_metadata="${metadata()}"`,
    );
  });

  it('403 insufficient_scope for the write tool and six tools listed once the admin is demoted to member', async () => {
    // Prepare
    const admin = await addSignedInMember(app, owned.owner.token, owned.organizationId, 'admin');
    const token = await accessToken(admin.userId, ['auth:read', 'auth:write']);
    const listedBefore = await post(bearer(token), toolCall('', {}, 'tools/list'));

    // Act
    const demoted = await manage(
      app,
      'PATCH',
      `/organizations/${owned.organizationId}/members/${admin.userId}`,
      { token: owned.owner.token },
      { role: 'member' },
    );
    const write = await post(
      bearer(token),
      toolCall('auth_revoke_user_sessions', { userId: endUser.body.user.id }),
    );
    const listedAfter = await post(bearer(token), toolCall('', {}, 'tools/list'));

    // Assess
    const names = (answer: typeof listedAfter) =>
      (answer.body.result.tools as Array<{ name: string }>).map((tool) => tool.name).sort();
    expect(names(listedBefore)).toEqual([...READ_TOOLS, 'auth_revoke_user_sessions'].sort());
    expect(demoted.status).toBe(200);
    expect(write.status).toBe(403);
    expect(write.headers['www-authenticate']).toContain('error="insufficient_scope"');
    expect(write.body.error.data.code).toBe('FORBIDDEN');
    expect(names(listedAfter)).toEqual(READ_TOOLS);
  });
});

describe('POST /mcp/{applicationId}: the id of a refusal', () => {
  it('401 and 403 echo the request id; a notification and an unparsed body keep id null', async () => {
    // Prepare
    const token = await accessToken(member.userId, ['auth:read']);
    const write = toolCall('auth_revoke_user_sessions', { userId: endUser.body.user.id });
    const { id: _none, ...notification } = toolCall('auth_get_application');

    // Act
    const noToken = await post({}, { ...toolCall('auth_get_application'), id: 9 });
    const stepUp = await app.request('POST', `/mcp/${owned.applicationId}`, {
      headers: bearer(token, {
        accept: 'application/json, text/event-stream',
        'mcp-protocol-version': '2026-07-28',
        'mcp-method': 'tools/call',
        'mcp-name': 'auth_revoke_user_sessions',
      }),
      body: { ...write, id: 'call-7' },
    });
    const unannounced = await app.request('POST', `/mcp/${owned.applicationId}`, { body: notification });
    const notJson = await app.request('POST', `/mcp/${owned.applicationId}`, {
      headers: { 'content-type': 'application/json' },
      raw: '{"jsonrpc":"2.0","id":3,',
    });

    // Assess
    expect([noToken.status, noToken.body.id]).toEqual([401, 9]);
    expect([stepUp.status, stepUp.body.id]).toEqual([403, 'call-7']);
    expect([unannounced.status, unannounced.body.id]).toEqual([401, null]);
    expect([notJson.status, notJson.body.id]).toEqual([400, null]);
  });
});

describe('POST /mcp/{applicationId}: the protocol revisions (dual-era)', () => {
  const initialize = (protocolVersion: string) => ({
    jsonrpc: '2.0',
    id: 1,
    method: 'initialize',
    params: { protocolVersion, capabilities: {}, clientInfo: { name: 'old-client', version: '1.0.0' } },
  });
  const legacyCall = (name: string, args: Record<string, unknown> = {}) => ({
    jsonrpc: '2.0',
    id: 3,
    method: 'tools/call',
    params: { name, arguments: args },
  });
  const legacyPost = (token: string, body: unknown, headers: Record<string, string> = {}) =>
    app.request('POST', `/mcp/${owned.applicationId}`, {
      headers: bearer(token, { accept: 'application/json, text/event-stream', ...headers }),
      body,
    });

  it.each(['2025-06-18', '2025-11-25'])(
    'answers a %s initialize in JSON with that revision, the tools capability and no session id',
    async (revision) => {
      // Prepare
      const token = await accessToken(member.userId, ['auth:read']);

      // Act
      const response = await legacyPost(token, initialize(revision));

      // Assess
      expect(response.status).toBe(200);
      expect(response.headers['content-type']).toMatch(/^application\/json/);
      expect(response.headers['mcp-session-id']).toBeUndefined();
      expect(response.body.result.protocolVersion).toBe(revision);
      expect(response.body.result.capabilities.tools).toEqual({ listChanged: false });
    },
  );

  it('answers a revision it does not serve with the newest 2025-era one, which the client may refuse', async () => {
    // Prepare
    const token = await accessToken(member.userId, ['auth:read']);

    // Act
    const response = await legacyPost(token, initialize('2024-11-05'));

    // Assess
    expect(response.status).toBe(200);
    expect(response.body.result.protocolVersion).toBe('2025-11-25');
  });

  it('serves a 2025-era tools/list and tools/call each on its own, with no session, with the role filter', async () => {
    // Prepare: no session: each request stands alone, as on another container.
    const token = await accessToken(member.userId, ['auth:read']);
    const version = { 'mcp-protocol-version': '2025-06-18' };

    // Act
    const listed = await legacyPost(token, { jsonrpc: '2.0', id: 2, method: 'tools/list' }, version);
    const called = await legacyPost(token, legacyCall('auth_get_application'), version);
    const write = await legacyPost(
      token,
      legacyCall('auth_revoke_user_sessions', { userId: endUser.body.user.id }),
      version,
    );

    // Assess
    expect(listed.status).toBe(200);
    expect(listed.body.result.tools.map((tool: { name: string }) => tool.name).sort()).toEqual(READ_TOOLS);
    expect(called.body.result.structuredContent).toMatchObject({ id: owned.applicationId });
    expect(write.status).toBe(403);
    expect(write.headers['www-authenticate']).toMatch(
      /^Bearer error="insufficient_scope", scope="auth:write"/,
    );
  });

  it('refuses a 2025-era request naming a revision it does not serve in its header, as the transport does', async () => {
    // Prepare
    const token = await accessToken(member.userId, ['auth:read']);

    // Act
    const response = await legacyPost(
      token,
      { jsonrpc: '2.0', id: 2, method: 'tools/list' },
      {
        'mcp-protocol-version': '2024-10-07',
      },
    );

    // Assess
    expect(response.status).toBe(400);
    expect(response.body.result).toBeUndefined();
    expect(JSON.stringify(response.body.error)).toContain('Unsupported protocol version');
  });

  it('answers 406 to a 2025-era client that does not accept JSON and event streams, as the transport requires', async () => {
    // Prepare
    const token = await accessToken(member.userId, ['auth:read']);

    // Act
    const response = await legacyPost(token, initialize('2025-06-18'), { accept: 'text/html' });

    // Assess
    expect(response.status).toBe(406);
    expect(response.body.error.code).toBe(-32000);
    expect(response.body.result).toBeUndefined();
  });

  it('still refuses a 2025-era initialize without a token, with the challenge', async () => {
    // Act
    const response = await app.request('POST', `/mcp/${owned.applicationId}`, {
      headers: { accept: 'application/json, text/event-stream' },
      body: initialize('2025-06-18'),
    });

    // Assess
    expect(response.status).toBe(401);
    expect(response.headers['www-authenticate']).toBe(`Bearer resource_metadata="${metadata()}"`);
  });
});

describe('POST /mcp/{applicationId}: a notification', () => {
  it('is acknowledged with 202 and no body', async () => {
    // Prepare
    const token = await accessToken(member.userId, ['auth:read']);
    const cancelled = toolCall('', {}, 'notifications/cancelled');
    const { id: _none, ...notification } = { ...cancelled, params: { ...cancelled.params, requestId: 7 } };

    // Act
    const response = await app.request('POST', `/mcp/${owned.applicationId}`, {
      headers: bearer(token, {
        accept: 'application/json, text/event-stream',
        'mcp-protocol-version': '2026-07-28',
        'mcp-method': 'notifications/cancelled',
      }),
      body: notification,
    });

    // Assess
    expect(response.status).toBe(202);
    expect(response.text).toBe('');
  });
});

describe('POST /mcp/{applicationId}: streaming methods', () => {
  it('answers subscriptions/listen at once with 404 and a JSON-RPC method-not-found error naming its id', async () => {
    // Prepare
    const token = await accessToken(member.userId, ['auth:read']);
    const listen = { ...toolCall('', {}, 'subscriptions/listen'), id: 42 };

    // Act
    const response = await post(bearer(token), listen);

    // Assess
    expect(response.status).toBe(404);
    expect(response.headers['content-type']).toContain('application/json');
    expect(response.body).toMatchObject({ jsonrpc: '2.0', id: 42, error: { code: -32601 } });
  }, 5000);

  it('does not advertise tools.listChanged, which a server without a stream cannot deliver', async () => {
    // Prepare
    const client = await connect(await accessToken(member.userId, ['auth:read']));

    // Act
    const capabilities = client.getServerCapabilities();
    await client.close();

    // Assess
    expect(capabilities?.tools).toBeDefined();
    expect(capabilities?.tools?.listChanged).not.toBe(true);
  });
});

describe('POST /mcp/{applicationId}: media types', () => {
  it.each(['application/vnd.api+json', 'application/problem+json; charset=utf-8'])(
    'serves a JSON body sent as %s like application/json (never a 500)',
    async (contentType) => {
      const token = await accessToken(owned.owner.userId, ['auth:read']);
      const response = await mcpPost(app, owned.applicationId, {
        ...bearer(token),
        'content-type': contentType,
      });
      expect(response.status, response.text).toBe(200);
      expect(response.body.result.structuredContent.id).toBe(owned.applicationId);
    },
  );
});

describe('GET and DELETE /mcp/{applicationId}', () => {
  it('answer 405 with Allow: POST (a stateless JSON server opens no stream)', async () => {
    // Act
    const get = await app.request('GET', `/mcp/${owned.applicationId}`, {
      headers: { accept: 'text/event-stream' },
    });
    const del = await app.request('DELETE', `/mcp/${owned.applicationId}`);

    // Assess
    expect([get.status, del.status]).toEqual([405, 405]);
    expect([get.headers.allow, del.headers.allow]).toEqual(['POST', 'POST']);
  });
});
