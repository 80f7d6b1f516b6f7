import { decodeJwt, decodeProtectedHeader, SignJWT, UnsecuredJWT } from 'jose';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { signJwt } from '../../shared/crypto/jwt.ts';
import { generateLocalKeyPem, LocalSigner } from '../../shared/crypto/local-signer.ts';
import { freePort } from '../../shared/local/ports.ts';
import { issueAccessToken } from '../../shared/oauth/access-token.ts';
import { createVerifier, type Verifier } from '../../verifier/src/index.ts';
import { startTestApp, type TestApp } from '../support/app.ts';
import { freshIp } from '../support/http-client.ts';
import { testKeyPair } from '../support/keys.ts';
import { bearer, newEmail, signIn } from '../support/sign-in.ts';
import { createOwnedApplication } from '../support/tenancy.ts';

/**
 * The verifier against the real local service: tokens it issued through the API (and an access
 * token from its own signer), its published JWKS, its `GET /auth/session`. The service runs on a
 * known port with ISSUER = its own URL, as a deployed one does, so `<issuer>/.well-known/jwks.json`
 * and `<issuer>/auth/session` are real.
 */
let app: TestApp;
let verifier: Verifier;
let owned: Awaited<ReturnType<typeof createOwnedApplication>>;
let platformToken: string;
let applicationToken: string;
let accessToken: string;
let resource: string;

const base64url = (value: object) => Buffer.from(JSON.stringify(value)).toString('base64url');

beforeAll(async () => {
  const port = await freePort();
  app = await startTestApp({ port, env: { ISSUER: `http://127.0.0.1:${port}` } });
  verifier = createVerifier({ issuer: app.deps.config.ISSUER });
  owned = await createOwnedApplication(app);
  platformToken = owned.owner.token;
  applicationToken = (await signIn(app, newEmail(), { 'x-api-key': owned.publicKey })).token;
  resource = `${app.url}/mcp/${owned.applicationId}`;
  accessToken = (
    await issueAccessToken(app.deps, {
      userId: owned.owner.userId,
      resource,
      scopes: ['auth:read', 'auth:write'],
      clientId: 'https://client.example.test/client.json',
      grantId: 'grt_test',
    })
  ).accessToken;
}, 60_000);
afterAll(() => app?.close());

describe('valid tokens', () => {
  it('accepts a platform session token signed in through the API, with its claims', async () => {
    // Act
    const result = await verifier.verifySession(platformToken);

    // Assess
    expect(result.ok).toBe(true);
    expect(result.ok && result.claims).toMatchObject({
      iss: app.deps.config.ISSUER,
      sub: owned.owner.userId,
      aud: 'platform',
      email: owned.owner.email,
    });
  });

  it("accepts an application's session token for that application id", async () => {
    // Act
    const result = await verifier.verifySession(applicationToken, { applicationId: owned.applicationId });

    // Assess
    expect(result.ok && result.claims.aud).toBe(owned.applicationId);
  });

  it('accepts an OAuth access token for its resource, with its scopes', async () => {
    // Act
    const result = await verifier.verifyAccessToken(accessToken, { resource });

    // Assess
    expect(result.ok && result.claims.scopes).toEqual(['auth:read', 'auth:write']);
    expect(result.ok && result.claims.aud).toBe(resource);
  });
});

describe('refused tokens', () => {
  it('refuses a session token for another audience (another application, or an application token as platform)', async () => {
    // Act
    const other = await verifier.verifySession(applicationToken, { applicationId: 'app_someoneelse' });
    const asPlatform = await verifier.verifySession(applicationToken);
    const platformAsApp = await verifier.verifySession(platformToken, { applicationId: owned.applicationId });

    // Assess
    expect([other, asPlatform, platformAsApp].map((r) => !r.ok && r.code)).toEqual([
      'TOKEN_AUDIENCE',
      'TOKEN_AUDIENCE',
      'TOKEN_AUDIENCE',
    ]);
  });

  it('refuses an access token for another resource', async () => {
    // Act
    const result = await verifier.verifyAccessToken(accessToken, { resource: `${app.url}/mcp/app_other` });

    // Assess
    expect(!result.ok && result.code).toBe('TOKEN_AUDIENCE');
  });

  it('never takes an access token for a session token, nor a session token for an access token (typ)', async () => {
    // Act
    const accessAsSession = await verifier.verifySession(accessToken, { applicationId: resource });
    const sessionAsAccess = await verifier.verifyAccessToken(platformToken, { resource: 'platform' });

    // Assess
    expect(!accessAsSession.ok && accessAsSession.code).toBe('TOKEN_TYPE');
    expect(!sessionAsAccess.ok && sessionAsAccess.code).toBe('TOKEN_TYPE');
  });

  it('refuses a token of another issuer (the same keys)', async () => {
    // Prepare
    const elsewhere = createVerifier({
      issuer: 'https://auth.elsewhere.test',
      jwksUrl: `${app.url}/.well-known/jwks.json`,
    });

    // Act
    const result = await elsewhere.verifySession(platformToken);

    // Assess
    expect(!result.ok && result.code).toBe('TOKEN_ISSUER');
  });

  it('refuses an expired token beyond the clock tolerance, and accepts it within', async () => {
    // Prepare
    const { exp } = decodeJwt(platformToken) as { exp: number };
    const at = (seconds: number) =>
      createVerifier({ issuer: app.deps.config.ISSUER, clockToleranceSeconds: 5, now: () => seconds * 1000 });

    // Act
    const within = await at(exp + 4).verifySession(platformToken);
    const beyond = await at(exp + 5).verifySession(platformToken);

    // Assess
    expect(within.ok).toBe(true);
    expect(!beyond.ok && beyond.code).toBe('TOKEN_EXPIRED');
  });

  it('refuses a token issued in the future beyond the clock tolerance (iat), and accepts it within', async () => {
    // Prepare
    const { iat } = decodeJwt(platformToken) as { iat: number };
    const at = (seconds: number) =>
      createVerifier({ issuer: app.deps.config.ISSUER, clockToleranceSeconds: 5, now: () => seconds * 1000 });

    // Act
    const within = await at(iat - 5).verifySession(platformToken);
    const beyond = await at(iat - 6).verifySession(platformToken);

    // Assess
    expect(within.ok).toBe(true);
    expect(!beyond.ok && beyond.code).toBe('TOKEN_NOT_YET_VALID');
  });

  it('refuses alg none', async () => {
    // Prepare
    const unsigned = new UnsecuredJWT(decodeJwt(platformToken)).encode();

    // Act
    const result = await verifier.verifySession(unsigned);

    // Assess
    expect(!result.ok && result.code).toBe('TOKEN_ALGORITHM');
  });

  it('refuses HS256 keyed with the public key (PEM and JWK forms)', async () => {
    // Prepare
    const { kid } = decodeProtectedHeader(platformToken);
    const publicPem = testKeyPair().publicKey.export({ type: 'spki', format: 'pem' }).toString();
    const jwkText = JSON.stringify((await app.request('GET', '/.well-known/jwks.json')).body.keys[0]);
    const forge = (secret: string) =>
      new SignJWT(decodeJwt(platformToken))
        .setProtectedHeader({ alg: 'HS256', typ: 'JWT', ...(kid ? { kid } : {}) })
        .sign(new TextEncoder().encode(secret));

    // Act
    const results = await Promise.all([
      verifier.verifySession(await forge(publicPem)),
      verifier.verifySession(await forge(jwkText)),
    ]);

    // Assess
    expect(results.map((r) => !r.ok && r.code)).toEqual(['TOKEN_ALGORITHM', 'TOKEN_ALGORITHM']);
  });

  it('refuses a token signed by a key the JWKS does not publish (unknown kid)', async () => {
    // Prepare
    const forged = await signJwt(new LocalSigner(generateLocalKeyPem()), decodeJwt(platformToken));

    // Act
    const result = await verifier.verifySession(forged);

    // Assess
    expect(!result.ok && result.code).toBe('KEY_UNKNOWN');
  });

  it('refuses a token whose payload was changed after signing', async () => {
    // Prepare
    const [header, , signature] = platformToken.split('.');
    const payload = base64url({ ...decodeJwt(platformToken), sub: 'usr_someoneelse' });

    // Act
    const result = await verifier.verifySession(`${header}.${payload}.${signature}`);

    // Assess
    expect(!result.ok && result.code).toBe('TOKEN_SIGNATURE');
  });

  it.each(['', 'not-a-jwt', 'a.b.c', 'x'.repeat(9000)])('refuses a malformed token (%#)', async (token) => {
    // Act
    const result = await verifier.verifySession(token);

    // Assess
    expect(!result.ok && result.code).toBe('TOKEN_MALFORMED');
  });
});

describe('check-with-service mode', () => {
  it('refuses a signed-out session at once, while local verification still accepts its token', async () => {
    // Prepare
    const { token } = await signIn(app);
    const before = await verifier.verifySession(token, { checkWithService: true });
    const signOut = await app.request('POST', '/auth/sign-out', { headers: bearer(token), ip: freshIp() });

    // Act
    const local = await verifier.verifySession(token);
    const checked = await verifier.verifySession(token, { checkWithService: true });

    // Assess
    expect(before.ok).toBe(true);
    expect(signOut.status).toBe(200);
    expect(local.ok).toBe(true);
    expect(!checked.ok && checked.code).toBe('SESSION_REVOKED');
  });

  it('refuses a token a refresh replaced, for a verifier in check-with-service mode with the application key', async () => {
    // Prepare
    const checking = createVerifier({
      issuer: app.deps.config.ISSUER,
      audience: owned.applicationId,
      apiKey: owned.publicKey,
      checkWithService: true,
    });
    const { token } = await signIn(app, newEmail(), { 'x-api-key': owned.publicKey });
    const before = await checking.verifySession(token);
    const refreshed = await app.request('POST', '/auth/refresh', {
      headers: bearer(token, { 'x-api-key': owned.publicKey }),
      ip: freshIp(),
    });

    // Act
    const old = await checking.verifySession(token);
    const current = await checking.verifySession(refreshed.body.token);

    // Assess
    expect(before.ok).toBe(true);
    expect(refreshed.status).toBe(200);
    expect(!old.ok && old.code).toBe('SESSION_REVOKED');
    expect(current.ok).toBe(true);
  });
});
