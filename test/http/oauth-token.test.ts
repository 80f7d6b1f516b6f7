import { createLocalJWKSet, jwtVerify } from 'jose';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sha256Hex } from '../../shared/crypto/hash.ts';
import type { Signer } from '../../shared/crypto/signer.ts';
import { readAuthorizationCode, readGrant } from '../../shared/store/oauth.ts';
import { ownMcpResource } from '../../shared/tenancy/service-resources.ts';
import { startTestApp, TEST_ISSUER, type TestApp } from '../support/app.ts';
import {
  type ClientMetadataServer,
  metadataEnv,
  startClientMetadataServer,
} from '../support/client-metadata-server.ts';
import {
  CLIENT,
  connect,
  newCode,
  oauthErrorOf,
  refreshRequest,
  tokenRequest,
} from '../support/oauth-token.ts';
import { addSignedInMember, createOwnedApplication, manage } from '../support/tenancy.ts';

let app: TestApp;
let owned: Awaited<ReturnType<typeof createOwnedApplication>>;
let other: Awaited<ReturnType<typeof createOwnedApplication>>;

/** Serves the protected resource metadata (RFC 9728) an external resource needs to be registered. */
let metadata: ClientMetadataServer;

beforeAll(async () => {
  metadata = await startClientMetadataServer();
  app = await startTestApp({ env: metadataEnv(metadata) });
  owned = await createOwnedApplication(app);
  other = await createOwnedApplication(app, 'Other App');
});
afterAll(async () => {
  await app.close();
  await metadata.close();
});

const owner = () => ({ userId: owned.owner.userId, applicationId: owned.applicationId });
const refused = (status: number, error: string) => ({ status, error, cacheControl: 'no-store' });

/** The connection ids the user sees (GET /auth/list-connections). */
async function connectionIds(token: string): Promise<string[]> {
  const listed = await manage(app, 'GET', '/auth/list-connections', { token });
  expect(listed.status).toBe(200);
  return listed.body.items.map((item: { id: string }) => item.id);
}

describe('POST /oauth/token: authorization_code', () => {
  it('answers the tokens uncached, with an access token the JWKS verifies for the resource', async () => {
    // Prepare
    const issued = await newCode(app, owner());

    // Act
    const response = await tokenRequest(app, issued.fields);

    // Assess
    expect(response.status, response.text).toBe(200);
    expect(response.headers['cache-control']).toBe('no-store');
    expect(response.headers.pragma).toBe('no-cache');
    expect(response.body).toEqual({
      access_token: expect.any(String),
      token_type: 'Bearer',
      expires_in: 3600,
      refresh_token: expect.stringMatching(/^[\w-]{43,}$/),
      scope: 'auth:read auth:write',
    });
    const jwks = await app.request('GET', '/.well-known/jwks.json');
    const { payload, protectedHeader } = await jwtVerify(
      response.body.access_token,
      createLocalJWKSet(jwks.body),
      { issuer: app.deps.config.ISSUER, audience: issued.resource, currentDate: new Date(app.clock.now()) },
    );
    expect(protectedHeader).toMatchObject({ alg: 'RS256', typ: 'at+jwt' });
    expect(payload).toMatchObject({
      sub: owned.owner.userId,
      aud: issued.resource,
      scope: 'auth:read auth:write',
      client_id: CLIENT.clientId,
      gid: expect.stringMatching(/^grt_/),
      jti: expect.any(String),
    });
    expect((payload.exp ?? 0) - (payload.iat ?? 0)).toBe(3600);
    // The grant names the organization, so the MCP endpoint reads the membership straight away.
    const grant = await readGrant(app.deps.db, owned.owner.userId, payload.gid as string);
    expect(grant?.organizationId).toBe(owned.organizationId);
  });

  it('accepts the exchange without `resource` (it is optional when resent)', async () => {
    const { resource: _resource, ...fields } = (await newCode(app, owner())).fields;
    expect((await tokenRequest(app, fields)).status).toBe(200);
  });

  it('refuses a missing or malformed code_verifier with invalid_request', async () => {
    const { code_verifier: _verifier, ...fields } = (await newCode(app, owner())).fields;
    expect(oauthErrorOf(await tokenRequest(app, fields))).toEqual(refused(400, 'invalid_request'));
    expect(oauthErrorOf(await tokenRequest(app, { ...fields, code_verifier: 'short' }))).toEqual(
      refused(400, 'invalid_request'),
    );
  });

  it('refuses a wrong verifier with invalid_grant', async () => {
    const issued = await newCode(app, owner());
    const response = await tokenRequest(app, { ...issued.fields, code_verifier: 'x'.repeat(43) });
    expect(oauthErrorOf(response)).toEqual(refused(400, 'invalid_grant'));
  });

  it('refuses a replayed code and revokes the grant its first exchange created', async () => {
    // Prepare
    const first = await connect(app, owner());
    expect(await connectionIds(owned.owner.token)).toContain(await grantIdOf(first.tokens.access_token));

    // Act
    const replay = await tokenRequest(app, first.fields);

    // Assess
    expect(oauthErrorOf(replay)).toEqual(refused(400, 'invalid_grant'));
    expect(oauthErrorOf(await refreshRequest(app, first.tokens.refresh_token))).toEqual(
      refused(400, 'invalid_grant'),
    );
    expect(await connectionIds(owned.owner.token)).not.toContain(await grantIdOf(first.tokens.access_token));
  });

  it('refuses the code of another client and another redirect_uri', async () => {
    const issued = await newCode(app, { ...owner(), clientId: 'https://other.example.test/client.json' });
    expect(oauthErrorOf(await tokenRequest(app, { ...issued.fields, client_id: CLIENT.clientId }))).toEqual(
      refused(400, 'invalid_grant'),
    );
    const mine = await newCode(app, owner());
    for (const redirect of [`${CLIENT.redirectUri}/`, 'http://127.0.0.1:43117/other']) {
      expect(oauthErrorOf(await tokenRequest(app, { ...mine.fields, redirect_uri: redirect }))).toEqual(
        refused(400, 'invalid_grant'),
      );
    }
    // Refusals never spend the code.
    expect((await tokenRequest(app, mine.fields)).status).toBe(200);
  });

  it('refuses an expired code (its expiry is checked, not left to TTL)', async () => {
    const issued = await newCode(app, owner());
    app.clock.advance(600_000);
    expect(oauthErrorOf(await tokenRequest(app, issued.fields))).toEqual(refused(400, 'invalid_grant'));
  });

  it('refuses another or an unknown resource with invalid_target', async () => {
    const issued = await newCode(app, owner());
    for (const resource of [
      ownMcpResource(app.deps.config.ISSUER, other.applicationId),
      'https://unknown.example.test/mcp',
    ]) {
      expect(oauthErrorOf(await tokenRequest(app, { ...issued.fields, resource }))).toEqual(
        refused(400, 'invalid_target'),
      );
    }
  });

  it('refuses other grant types, a missing one, and client authentication', async () => {
    const issued = await newCode(app, owner());
    expect(oauthErrorOf(await tokenRequest(app, { ...issued.fields, grant_type: 'password' }))).toEqual(
      refused(400, 'unsupported_grant_type'),
    );
    expect(
      oauthErrorOf(await tokenRequest(app, { ...issued.fields, grant_type: 'client_credentials' })),
    ).toEqual(refused(400, 'unsupported_grant_type'));
    const { grant_type: _grantType, ...noGrant } = issued.fields;
    expect(oauthErrorOf(await tokenRequest(app, noGrant))).toEqual(refused(400, 'invalid_request'));
    expect(oauthErrorOf(await tokenRequest(app, { ...issued.fields, client_secret: 's3cret' }))).toEqual(
      refused(400, 'invalid_client'),
    );
  });

  it('answers client authentication by an Authorization header 401 invalid_client with a challenge of its scheme', async () => {
    // Prepare
    const issued = await newCode(app, owner());
    const basic = { authorization: `Basic ${Buffer.from('client:secret').toString('base64')}` };

    // Act
    const response = await tokenRequest(app, issued.fields, basic);
    const other = await tokenRequest(app, issued.fields, { authorization: 'Bearer abc' });

    // Assess (RFC 6749 §5.2)
    expect(oauthErrorOf(response)).toEqual(refused(401, 'invalid_client'));
    expect(response.headers['www-authenticate']).toBe(`Basic realm="${app.deps.config.ISSUER}"`);
    expect(oauthErrorOf(other)).toEqual(refused(401, 'invalid_client'));
    expect(other.headers['www-authenticate']).toBe(`Bearer realm="${app.deps.config.ISSUER}"`);
    // Refusals never spend the code.
    expect((await tokenRequest(app, issued.fields)).status).toBe(200);
  });

  it('takes a form body only', async () => {
    const issued = await newCode(app, owner());
    const json = await app.request('POST', '/oauth/token', { body: issued.fields });
    expect(oauthErrorOf(json)).toEqual(refused(415, 'invalid_request'));
  });
});

/** The grant id (`gid`) of an access token, read without verifying (the verification is above). */
async function grantIdOf(accessToken: string): Promise<string> {
  const [, payload] = accessToken.split('.');
  return JSON.parse(Buffer.from(payload ?? '', 'base64url').toString('utf8')).gid as string;
}

/** Whether the code was spent (its `usedAt` set), read from the table. */
async function isSpent(code: string): Promise<boolean> {
  return (await readAuthorizationCode(app.deps.db, sha256Hex(code)))?.usedAt !== undefined;
}

describe('POST /oauth/token: the exchange reads the role and the resource again', () => {
  it('refuses, and spends, a code whose user was removed from the organization after consent', async () => {
    // Prepare
    const admin = await addSignedInMember(app, owned.owner.token, owned.organizationId, 'admin');
    const issued = await newCode(app, { userId: admin.userId, applicationId: owned.applicationId });
    const removed = await manage(
      app,
      'DELETE',
      `/organizations/${owned.organizationId}/members/${admin.userId}`,
      {
        token: owned.owner.token,
      },
    );
    expect(removed.status).toBe(204);

    // Act
    const response = await tokenRequest(app, issued.fields);

    // Assess
    expect(oauthErrorOf(response)).toEqual(refused(400, 'invalid_grant'));
    expect(await isSpent(issued.code)).toBe(true);
    expect(await connectionIds(admin.token)).toEqual([]);
  });

  it('grants a demoted admin only what the role allows now', async () => {
    // Prepare
    const admin = await addSignedInMember(app, owned.owner.token, owned.organizationId, 'admin');
    const issued = await newCode(app, { userId: admin.userId, applicationId: owned.applicationId });
    const memberPath = `/organizations/${owned.organizationId}/members/${admin.userId}`;
    expect(
      (await manage(app, 'PATCH', memberPath, { token: owned.owner.token }, { role: 'member' })).status,
    ).toBe(200);

    // Act
    const response = await tokenRequest(app, issued.fields);

    // Assess
    expect(response.status, response.text).toBe(200);
    expect(response.body.scope).toBe('auth:read');
    const listed = await manage(app, 'GET', '/auth/list-connections', { token: admin.token });
    expect(listed.body.items.map((item: { scopes: string[] }) => item.scopes)).toEqual([['auth:read']]);
  });

  it('stops minting tokens for an external resource the application released and another tenant claimed', async () => {
    // Prepare
    const holder = await createOwnedApplication(app, 'Holder App');
    const claimant = await createOwnedApplication(app, 'Claimant App');
    const resource = metadata.serveResource('/released/mcp', TEST_ISSUER);
    const configure = (of: typeof holder, resources: string[]) =>
      manage(
        app,
        'PUT',
        `/applications/${of.applicationId}/configuration`,
        { token: of.owner.token },
        {
          authentication: { syntheticEmailDomain: null },
          oauth: { resources },
          origin: null,
          socialProviders: { google: null, github: null, microsoft: null, oidc: null },
          socialReturnUrls: [],
        },
      );
    expect((await configure(holder, [resource])).status).toBe(200);
    const input = { userId: holder.owner.userId, applicationId: holder.applicationId, resource };
    const { tokens } = await connect(app, input);
    expect(tokens.access_token).toBeTruthy();
    const refreshed = await refreshRequest(app, tokens.refresh_token);
    expect(refreshed.status, refreshed.text).toBe(200);
    const pending = await newCode(app, input);

    // Act
    expect((await configure(holder, [])).status).toBe(200);
    expect((await configure(claimant, [resource])).status).toBe(200);
    const refresh = await refreshRequest(app, refreshed.body.refresh_token);
    const exchange = await tokenRequest(app, pending.fields);

    // Assess
    expect(oauthErrorOf(refresh)).toEqual(refused(400, 'invalid_grant'));
    expect(oauthErrorOf(exchange)).toEqual(refused(400, 'invalid_grant'));
    expect(await isSpent(pending.code)).toBe(true);
    expect(await connectionIds(holder.owner.token)).toEqual([]);
  });
});

describe('POST /oauth/token: a failed access-token signature', () => {
  let failing: TestApp;
  let failAccessTokens = true;
  /** The real signer, failing for access tokens (header `typ: at+jwt`) while `failAccessTokens`. */
  const wrap = (real: Signer): Signer => ({
    activeKey: () => real.activeKey(),
    publicKeys: () => real.publicKeys(),
    sign: (input, kid) => {
      const [header] = Buffer.from(input).toString('ascii').split('.');
      const typ = JSON.parse(Buffer.from(header ?? '', 'base64url').toString('utf8')).typ;
      return failAccessTokens && typ === 'at+jwt'
        ? Promise.reject(new Error('KMS Sign failed'))
        : real.sign(input, kid);
    },
  });

  beforeAll(async () => {
    failing = await startTestApp({ overrides: (defaults) => ({ signer: wrap(defaults.signer) }) });
  });
  afterAll(() => failing.close());

  it('leaves the code unspent and no connection behind; a retry succeeds', async () => {
    // Prepare
    const mine = await createOwnedApplication(failing);
    const issued = await newCode(failing, { userId: mine.owner.userId, applicationId: mine.applicationId });

    // Act
    const failed = await tokenRequest(failing, issued.fields);

    // Assess
    expect(failed.status).toBe(500);
    expect((await readAuthorizationCode(failing.deps.db, sha256Hex(issued.code)))?.usedAt).toBeUndefined();
    const listed = await manage(failing, 'GET', '/auth/list-connections', { token: mine.owner.token });
    expect(listed.body.items).toEqual([]);

    // Act
    failAccessTokens = false;
    const retried = await tokenRequest(failing, issued.fields);

    // Assess
    expect(retried.status, retried.text).toBe(200);
    const after = await manage(failing, 'GET', '/auth/list-connections', { token: mine.owner.token });
    expect(after.body.items).toHaveLength(1);
  });
});

describe('POST /oauth/token: refresh_token', () => {
  it('rotates: a new refresh token, the same scopes, the old token spent', async () => {
    // Prepare
    const { tokens } = await connect(app, owner());

    // Act
    const refreshed = await refreshRequest(app, tokens.refresh_token, { client_id: CLIENT.clientId });

    // Assess
    expect(refreshed.status, refreshed.text).toBe(200);
    expect(refreshed.headers.pragma).toBe('no-cache');
    expect(refreshed.body.refresh_token).not.toBe(tokens.refresh_token);
    expect(refreshed.body.scope).toBe('auth:read auth:write');
    expect((await refreshRequest(app, refreshed.body.refresh_token)).status).toBe(200);
  });

  it('answers a replay within 30 s with the same new refresh token', async () => {
    const { tokens } = await connect(app, owner());
    const first = await refreshRequest(app, tokens.refresh_token);
    app.clock.advance(29_000);
    const replay = await refreshRequest(app, tokens.refresh_token);
    expect(replay.status, replay.text).toBe(200);
    expect(replay.body.refresh_token).toBe(first.body.refresh_token);
  });

  it('revokes the whole grant on a replay after the grace window', async () => {
    // Prepare
    const { tokens } = await connect(app, owner());
    const first = await refreshRequest(app, tokens.refresh_token);
    app.clock.advance(31_000);

    // Act
    const replay = await refreshRequest(app, tokens.refresh_token);

    // Assess
    expect(oauthErrorOf(replay)).toEqual(refused(400, 'invalid_grant'));
    expect(oauthErrorOf(await refreshRequest(app, first.body.refresh_token))).toEqual(
      refused(400, 'invalid_grant'),
    );
    expect(await connectionIds(owned.owner.token)).not.toContain(await grantIdOf(tokens.access_token));
  });

  it('gives two parallel refreshes of one token the same one successor', async () => {
    const { tokens } = await connect(app, owner());
    const [a, b] = await Promise.all([
      refreshRequest(app, tokens.refresh_token),
      refreshRequest(app, tokens.refresh_token),
    ]);
    expect([a.status, b.status]).toEqual([200, 200]);
    expect(a.body.refresh_token).toBe(b.body.refresh_token);
    expect((await refreshRequest(app, a.body.refresh_token)).status).toBe(200);
  });

  it('refuses another client_id (invalid_grant) and another resource (invalid_target)', async () => {
    const { tokens } = await connect(app, owner());
    expect(
      oauthErrorOf(
        await refreshRequest(app, tokens.refresh_token, { client_id: 'https://evil.example.test/c' }),
      ),
    ).toEqual(refused(400, 'invalid_grant'));
    const resource = ownMcpResource(app.deps.config.ISSUER, other.applicationId);
    expect(oauthErrorOf(await refreshRequest(app, tokens.refresh_token, { resource }))).toEqual(
      refused(400, 'invalid_target'),
    );
    expect((await refreshRequest(app, tokens.refresh_token)).status).toBe(200);
  });

  it('narrows by `scope` for this token only, and refuses a scope it does not hold', async () => {
    const { tokens } = await connect(app, owner());
    const narrowed = await refreshRequest(app, tokens.refresh_token, { scope: 'auth:read' });
    expect(narrowed.body.scope).toBe('auth:read');
    const again = await refreshRequest(app, narrowed.body.refresh_token);
    expect(again.body.scope).toBe('auth:read auth:write');
    expect(oauthErrorOf(await refreshRequest(app, again.body.refresh_token, { scope: 'admin' }))).toEqual(
      refused(400, 'invalid_scope'),
    );
  });

  it('narrows the grant when the user is demoted, and ends it when the user is removed', async () => {
    // Prepare
    const admin = await addSignedInMember(app, owned.owner.token, owned.organizationId, 'admin');
    const { tokens } = await connect(app, { userId: admin.userId, applicationId: owned.applicationId });
    const memberPath = `/organizations/${owned.organizationId}/members/${admin.userId}`;
    expect(
      (await manage(app, 'PATCH', memberPath, { token: owned.owner.token }, { role: 'member' })).status,
    ).toBe(200);

    // Act
    const demoted = await refreshRequest(app, tokens.refresh_token);

    // Assess
    expect(demoted.body.scope).toBe('auth:read');
    const listed = await manage(app, 'GET', '/auth/list-connections', { token: admin.token });
    expect(listed.body.items.map((item: { scopes: string[] }) => item.scopes)).toEqual([['auth:read']]);

    // Act
    expect((await manage(app, 'DELETE', memberPath, { token: owned.owner.token })).status).toBe(204);
    const removed = await refreshRequest(app, demoted.body.refresh_token);

    // Assess
    expect(oauthErrorOf(removed)).toEqual(refused(400, 'invalid_grant'));
    expect(await connectionIds(admin.token)).toEqual([]);
  });

  it('ends the grant when its application is deleted', async () => {
    // Prepare
    const doomed = await createOwnedApplication(app, 'Doomed App');
    const { tokens } = await connect(app, {
      userId: doomed.owner.userId,
      applicationId: doomed.applicationId,
    });
    const deleted = await manage(app, 'DELETE', `/applications/${doomed.applicationId}`, {
      token: doomed.owner.token,
    });
    expect(deleted.status, deleted.text).toBe(204);

    // Act
    const refreshed = await refreshRequest(app, tokens.refresh_token);

    // Assess
    expect(oauthErrorOf(refreshed)).toEqual(refused(400, 'invalid_grant'));
    expect(await connectionIds(doomed.owner.token)).toEqual([]);
  });

  it("refuses a revoked connection's refresh token", async () => {
    const { tokens } = await connect(app, owner());
    const id = await grantIdOf(tokens.access_token);
    const revoked = await manage(
      app,
      'POST',
      '/auth/revoke-connection',
      { token: owned.owner.token },
      { id },
    );
    expect(revoked.body).toEqual({ revoked: true });
    expect(oauthErrorOf(await refreshRequest(app, tokens.refresh_token))).toEqual(
      refused(400, 'invalid_grant'),
    );
  });

  it('refuses an unknown or missing refresh token', async () => {
    expect(oauthErrorOf(await refreshRequest(app, 'A'.repeat(43)))).toEqual(refused(400, 'invalid_grant'));
    expect(oauthErrorOf(await tokenRequest(app, { grant_type: 'refresh_token' }))).toEqual(
      refused(400, 'invalid_request'),
    );
  });

  // Last: it moves the shared clock by 30 days.
  it('refuses a refresh token past its 30 days', async () => {
    const { tokens } = await connect(app, owner());
    app.clock.advance(30 * 24 * 3600 * 1000);
    expect(oauthErrorOf(await refreshRequest(app, tokens.refresh_token))).toEqual(
      refused(400, 'invalid_grant'),
    );
  });
});
