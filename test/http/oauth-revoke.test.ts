import * as client from 'openid-client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readGrant } from '../../shared/store/oauth.ts';
import { startTestApp, TEST_ISSUER, type TestApp } from '../support/app.ts';
import { mcpPost } from '../support/mcp.ts';
import { postForm } from '../support/oauth-authorize.ts';
import { CLIENT, connect, oauthErrorOf, refreshRequest } from '../support/oauth-token.ts';
import { bearer, signIn } from '../support/sign-in.ts';
import { createOwnedApplication } from '../support/tenancy.ts';

/**
 * POST /oauth/revoke (docs/oauth.md, "Revocation"; RFC 7009): driven by `openid-client`'s
 * `tokenRevocation` as a client would call it, and over raw HTTP for what a library never sends.
 */

let app: TestApp;
let owned: Awaited<ReturnType<typeof createOwnedApplication>>;
let config: client.Configuration;

beforeAll(async () => {
  app = await startTestApp();
  owned = await createOwnedApplication(app);
  // openid-client's requests to the issuer's host, sent to the test app on loopback instead.
  const toTestApp = (url: string, options: client.CustomFetchOptions) =>
    fetch(url.replace(TEST_ISSUER, app.url), {
      ...options,
      body: options.body as RequestInit['body'],
      redirect: 'manual',
    });
  // RFC 8414 discovery (the service is no OpenID provider: no /.well-known/openid-configuration).
  config = await client.discovery(new URL(TEST_ISSUER), CLIENT.clientId, undefined, client.None(), {
    algorithm: 'oauth2',
    [client.customFetch]: toTestApp,
  });
  config[client.customFetch] = toTestApp;
});
afterAll(() => app.close());

const connected = () => connect(app, { userId: owned.owner.userId, applicationId: owned.applicationId });

const revokeRaw = (fields: Record<string, string>, headers: Record<string, string> = {}) =>
  postForm(app, '/oauth/revoke', fields, { 'content-type': 'application/x-www-form-urlencoded', ...headers });

/** Whether the grant behind a token answer is revoked in the table. */
const grantRevoked = async (grantId: string) =>
  (await readGrant(app.deps.db, owned.owner.userId, grantId))?.revokedAt !== undefined;

const grantIdOf = (accessToken: string): string =>
  JSON.parse(Buffer.from(accessToken.split('.')[1] ?? '', 'base64url').toString()).gid;

describe('POST /oauth/revoke with openid-client', () => {
  it('is advertised as revocation_endpoint in the RFC 8414 metadata openid-client discovered', () => {
    // Assess
    expect(config.serverMetadata().revocation_endpoint).toBe(`${TEST_ISSUER}/oauth/revoke`);
    expect(config.serverMetadata().revocation_endpoint_auth_methods_supported).toEqual(['none']);
  });

  it('ends a refresh token and its grant: the refresh is invalid_grant, the access token is refused at the MCP endpoint', async () => {
    // Prepare
    const { tokens } = await connected();

    // Act
    await client.tokenRevocation(config, tokens.refresh_token, { token_type_hint: 'refresh_token' });
    const refreshed = await refreshRequest(app, tokens.refresh_token);
    const mcp = await mcpPost(app, owned.applicationId, bearer(tokens.access_token));

    // Assess
    expect(oauthErrorOf(refreshed)).toMatchObject({ status: 400, error: 'invalid_grant' });
    expect(mcp.status).toBe(401);
    expect(mcp.headers['www-authenticate']).toContain('error="invalid_token"');
    expect(await grantRevoked(grantIdOf(tokens.access_token))).toBe(true);
  });

  it('ends an access token and its grant, with the hint or without it, so its refresh token fails too', async () => {
    // Prepare
    const first = await connected();
    const second = await connected();

    // Act
    await client.tokenRevocation(config, first.tokens.access_token, { token_type_hint: 'access_token' });
    await client.tokenRevocation(config, second.tokens.access_token);
    const refreshed = await refreshRequest(app, first.tokens.refresh_token);

    // Assess
    expect(await grantRevoked(grantIdOf(first.tokens.access_token))).toBe(true);
    expect(await grantRevoked(grantIdOf(second.tokens.access_token))).toBe(true);
    expect(oauthErrorOf(refreshed)).toMatchObject({ status: 400, error: 'invalid_grant' });
  });

  it('finds a refresh token sent with the access_token hint (the hint only orders the search)', async () => {
    // Prepare
    const { tokens } = await connected();

    // Act
    await client.tokenRevocation(config, tokens.refresh_token, { token_type_hint: 'access_token' });

    // Assess
    expect(await grantRevoked(grantIdOf(tokens.access_token))).toBe(true);
  });

  it('answers 200 for a token it does not know, one already revoked, and an unknown hint', async () => {
    // Prepare
    const { tokens } = await connected();
    await client.tokenRevocation(config, tokens.refresh_token);

    // Act
    const unknown = await revokeRaw({ token: 'not-a-token-of-ours', client_id: CLIENT.clientId });
    const again = await revokeRaw({ token: tokens.refresh_token, client_id: CLIENT.clientId });
    const oddHint = await revokeRaw({
      token: 'x.y.z',
      token_type_hint: 'id_token',
      client_id: CLIENT.clientId,
    });

    // Assess
    expect([unknown.status, again.status, oddHint.status]).toEqual([200, 200, 200]);
    expect(unknown.text).toBe('');
    expect(unknown.headers['cache-control']).toBe('no-store');
  });
});

describe('POST /oauth/revoke racing a refresh', () => {
  it('leaves no live refresh token, whichever lands first: a successor the refresh got is refused too', async () => {
    // Prepare: five grants, each revoked while its refresh token is being rotated.
    const grants = await Promise.all(Array.from({ length: 5 }, () => connected()));

    // Act
    const raced = await Promise.all(
      grants.map(async ({ tokens }) => {
        const [refreshed] = await Promise.all([
          refreshRequest(app, tokens.refresh_token),
          revokeRaw({ token: tokens.refresh_token, client_id: CLIENT.clientId }),
        ]);
        const successor =
          refreshed.status === 200 ? await refreshRequest(app, refreshed.body.refresh_token) : null;
        return { refreshed: refreshed.status, successor: successor && oauthErrorOf(successor).error };
      }),
    );

    // Assess: a refresh either lost (invalid_grant) or won, and then its successor is dead.
    for (const { refreshed, successor } of raced) {
      expect([200, 400]).toContain(refreshed);
      if (refreshed === 200) expect(successor).toBe('invalid_grant');
    }
    for (const { tokens } of grants) expect(await grantRevoked(grantIdOf(tokens.access_token))).toBe(true);
  });
});

describe('POST /oauth/revoke refusals', () => {
  it('answers 400 invalid_request without a token, and ends nothing', async () => {
    // Act
    const response = await revokeRaw({ client_id: CLIENT.clientId });

    // Assess
    expect(oauthErrorOf(response)).toEqual({
      status: 400,
      error: 'invalid_request',
      cacheControl: 'no-store',
    });
  });

  it('answers a token of another client exactly as an unknown token, and ends nothing (no liveness oracle)', async () => {
    // Prepare
    const { tokens } = await connected();
    const other = 'https://other.example.test/client.json';

    // Act
    const liveRefresh = await revokeRaw({ token: tokens.refresh_token, client_id: other });
    const liveAccess = await revokeRaw({ token: tokens.access_token, client_id: other });
    const unknown = await revokeRaw({ token: 'not-a-token-of-ours', client_id: other });
    const refreshed = await refreshRequest(app, tokens.refresh_token);

    // Assess
    const answer = (response: typeof unknown) => ({
      status: response.status,
      text: response.text,
      cacheControl: response.headers['cache-control'],
    });
    expect(answer(liveRefresh)).toEqual(answer(unknown));
    expect(answer(liveAccess)).toEqual(answer(unknown));
    expect(unknown.status).toBe(200);
    expect(refreshed.status).toBe(200);
    expect(await grantRevoked(grantIdOf(tokens.access_token))).toBe(false);
  });

  it('ends nothing for what is not a live access token of ours: alg none, a session token, an expired one', async () => {
    // Prepare
    const { tokens } = await connected();
    const [, payload] = tokens.access_token.split('.');
    const unsigned = `${Buffer.from('{"alg":"none","typ":"at+jwt"}').toString('base64url')}.${payload}.`;
    const session = await signIn(app);
    const expiring = await connected();
    app.clock.advance(3_601_000);

    // Act
    const answers = [
      await revokeRaw({ token: unsigned, client_id: CLIENT.clientId }),
      await revokeRaw({ token: session.token, client_id: CLIENT.clientId }),
      await revokeRaw({ token: expiring.tokens.access_token, client_id: CLIENT.clientId }),
    ];
    const sessionAfter = await app.request('GET', '/auth/session', { headers: bearer(session.token) });

    // Assess
    expect(answers.map((response) => response.status)).toEqual([200, 200, 200]);
    expect(await grantRevoked(grantIdOf(tokens.access_token))).toBe(false);
    expect(await grantRevoked(grantIdOf(expiring.tokens.access_token))).toBe(false);
    expect(sessionAfter.status).toBe(200);
  });

  it('finds a live refresh token sent with a hint it does not know', async () => {
    // Prepare
    const { tokens } = await connected();

    // Act
    const response = await revokeRaw({
      token: tokens.refresh_token,
      token_type_hint: 'id_token',
      client_id: CLIENT.clientId,
    });

    // Assess
    expect(response.status).toBe(200);
    expect(await grantRevoked(grantIdOf(tokens.access_token))).toBe(true);
  });

  it('refuses client authentication, as the token endpoint: 401 with a challenge, or 400 for a secret', async () => {
    // Prepare
    const { tokens } = await connected();

    // Act
    const basic = await revokeRaw(
      { token: tokens.refresh_token, client_id: CLIENT.clientId },
      { authorization: 'Basic YTpi' },
    );
    const secret = await revokeRaw({
      token: tokens.refresh_token,
      client_id: CLIENT.clientId,
      client_secret: 's',
    });
    const refreshed = await refreshRequest(app, tokens.refresh_token);

    // Assess
    expect(oauthErrorOf(basic)).toMatchObject({ status: 401, error: 'invalid_client' });
    expect(basic.headers['www-authenticate']).toBe(`Basic realm="${TEST_ISSUER}"`);
    expect(oauthErrorOf(secret)).toMatchObject({ status: 400, error: 'invalid_client' });
    expect(refreshed.status).toBe(200);
  });

  it('answers a JSON body with 415 as the token endpoint does (RFC 7009 §2.1: form-encoded)', async () => {
    // Act
    const response = await app.request('POST', '/oauth/revoke', { body: { token: 'abc' } });

    // Assess
    expect(response.status).toBe(415);
    expect(response.body.error).toBe('invalid_request');
  });
});
