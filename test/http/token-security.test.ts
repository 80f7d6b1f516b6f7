import { createHmac, createPublicKey, generateKeyPairSync, type KeyObject, sign } from 'node:crypto';
import { calculateJwkThumbprint, decodeJwt, decodeProtectedHeader } from 'jose';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { signJwt } from '../../shared/crypto/jwt.ts';
import { startTestApp, TEST_ISSUER, type TestApp } from '../support/app.ts';
import type { TestResponse } from '../support/http-client.ts';
import { connect } from '../support/oauth-token.ts';
import { bearer, newEmail, signIn } from '../support/sign-in.ts';
import { createOwnedApplication, createTestApplication } from '../support/tenancy.ts';

let app: TestApp;
let attacker: { privateKey: KeyObject; publicKey: KeyObject };
beforeAll(async () => {
  app = await startTestApp();
  attacker = generateKeyPairSync('rsa', { modulusLength: 2048 });
});
afterAll(() => app.close());

const b64 = (value: unknown) => Buffer.from(JSON.stringify(value)).toString('base64url');

/** A compact JWS over `header` and `payload`, signed by `signature(signingInput)`. */
async function compact(
  header: Record<string, unknown>,
  payload: Record<string, unknown>,
  signature: (input: Buffer) => Uint8Array | Promise<Uint8Array>,
): Promise<string> {
  const input = `${b64(header)}.${b64(payload)}`;
  const bytes = await signature(Buffer.from(input, 'ascii'));
  return `${input}.${Buffer.from(bytes).toString('base64url')}`;
}

/** Signed by the service's own key, with whatever header the test wants. */
const serviceSigned = (header: Record<string, unknown>, payload: Record<string, unknown>) =>
  compact(header, payload, (input) => app.deps.signer.sign(input));

const attackerSigned = (header: Record<string, unknown>, payload: Record<string, unknown>) =>
  compact(header, payload, (input) => sign('sha256', input, attacker.privateKey));

const session = (token: string, headers: Record<string, string> = {}) =>
  app.request('GET', '/auth/session', { headers: bearer(token, headers) });

function expectUnauthorized(response: TestResponse): void {
  expect(response.status).toBe(401);
  expect(response.body.error.code).toBe('UNAUTHORIZED');
  expect(response.body).not.toHaveProperty('user');
  expect(response.text).not.toMatch(/"token"/);
}

/** A fresh platform session and its decoded claims and header. */
async function freshSession() {
  const { token, body } = await signIn(app, newEmail());
  expect((await session(token)).status).toBe(200);
  return { token, body, claims: decodeJwt(token), header: decodeProtectedHeader(token) };
}

describe('GET /auth/session with forged or unusable Bearer tokens', () => {
  it('refuses alg none', async () => {
    const { claims } = await freshSession();
    for (const alg of ['none', 'None', 'NONE']) {
      const token = `${b64({ alg, typ: 'JWT' })}.${b64(claims)}.`;
      expectUnauthorized(await session(token));
    }
  });

  it('refuses HS256 keyed with the published public key', async () => {
    const { claims, header } = await freshSession();
    const jwks = await app.request('GET', '/.well-known/jwks.json');
    expect(jwks.status).toBe(200);
    const jwk = jwks.body.keys[0];
    const pem = createPublicKey({ key: jwk, format: 'jwk' })
      .export({ format: 'pem', type: 'spki' })
      .toString();
    const pkcs1 = createPublicKey({ key: jwk, format: 'jwk' })
      .export({ format: 'pem', type: 'pkcs1' })
      .toString();
    const secrets = [pem, pem.trim(), pkcs1, JSON.stringify(jwk), jwks.text, Buffer.from(jwk.n, 'base64url')];
    for (const secret of secrets) {
      const token = await compact({ alg: 'HS256', typ: 'JWT', kid: header.kid }, claims, (input) =>
        createHmac('sha256', secret).update(input).digest(),
      );
      expectUnauthorized(await session(token));
    }
  });

  it('refuses RS256 signed by a different RSA key with the same claims', async () => {
    const { claims, header } = await freshSession();
    const attackerKid = await calculateJwkThumbprint(attacker.publicKey.export({ format: 'jwk' }) as never);
    const attackerJwk = { ...attacker.publicKey.export({ format: 'jwk' }), kid: attackerKid, alg: 'RS256' };
    const headers = [
      { alg: 'RS256', typ: 'JWT', kid: header.kid },
      { alg: 'RS256', typ: 'JWT', kid: attackerKid },
      { alg: 'RS256', typ: 'JWT' },
      // Embedded and remote keys are never trusted (RFC 8725 §3.10).
      { alg: 'RS256', typ: 'JWT', kid: attackerKid, jwk: attackerJwk },
      { alg: 'RS256', typ: 'JWT', kid: header.kid, jku: 'https://evil.test/jwks.json' },
    ];
    for (const h of headers) expectUnauthorized(await session(await attackerSigned(h, claims)));
  });

  it('refuses a validly signed token with an unknown kid', async () => {
    const { claims, header } = await freshSession();
    // Control: the same helper with the published kid is accepted.
    const control = await serviceSigned({ alg: 'RS256', typ: 'JWT', kid: header.kid }, claims);
    expect((await session(control)).status).toBe(200);
    const token = await serviceSigned({ alg: 'RS256', typ: 'JWT', kid: 'not-a-key-we-publish' }, claims);
    expectUnauthorized(await session(token));
  });

  it('refuses hostile kid values without failing', async () => {
    const { claims } = await freshSession();
    const hostile: unknown[] = [
      '../../etc/passwd',
      'x'.repeat(10 * 1024),
      '{"$ne":1}',
      { $ne: 1 },
      ["' OR 1=1 --"],
      null,
      '',
    ];
    for (const kid of hostile) {
      const token = await serviceSigned({ alg: 'RS256', typ: 'JWT', kid }, claims);
      expectUnauthorized(await session(token));
    }
  });

  it('refuses a token signed by the service with a wrong issuer', async () => {
    const { claims } = await freshSession();
    expect((await session(await signJwt(app.deps.signer, claims))).status).toBe(200);
    for (const iss of ['https://evil.test', `${TEST_ISSUER}/`, TEST_ISSUER.toUpperCase()]) {
      expectUnauthorized(await session(await signJwt(app.deps.signer, { ...claims, iss })));
    }
    const { iss: _dropped, ...withoutIssuer } = claims;
    expectUnauthorized(await session(await signJwt(app.deps.signer, withoutIssuer)));
  });

  it('refuses a token signed by the service for another audience', async () => {
    const { claims } = await freshSession();
    expect(claims.aud).toBe('platform');
    for (const aud of ['app_other', ['platform', 'app_other'], '']) {
      expectUnauthorized(await session(await signJwt(app.deps.signer, { ...claims, aud })));
    }
  });

  it("refuses the session's own claims signed as an OAuth access token (typ at+jwt), or untyped", async () => {
    // Prepare
    const { claims, header } = await freshSession();
    expect((await session(await signJwt(app.deps.signer, claims, 'JWT'))).status).toBe(200);

    // Act
    const asAccessToken = await signJwt(app.deps.signer, claims, 'at+jwt');
    const untyped = await serviceSigned({ alg: 'RS256', kid: header.kid }, claims);

    // Assess
    expectUnauthorized(await session(asAccessToken));
    expectUnauthorized(await session(untyped));
  });

  it('refuses a real OAuth access token as a session token', async () => {
    const owned = await createOwnedApplication(app);
    const { tokens } = await connect(app, { userId: owned.owner.userId, applicationId: owned.applicationId });
    expectUnauthorized(await session(tokens.access_token));
  });

  it('refuses the real token once seven days and a second have passed', async () => {
    const { token } = await freshSession();
    app.clock.advance(7 * 24 * 60 * 60 * 1000 - 1000);
    expect((await session(token)).status).toBe(200);
    app.clock.advance(2000);
    expectUnauthorized(await session(token));
  });

  it('refuses tokens with two or four segments', async () => {
    const { token } = await freshSession();
    const [head, body, signature] = token.split('.');
    expectUnauthorized(await session(`${head}.${body}`));
    expectUnauthorized(await session(`${head}.${body}.${signature}.${signature}`));
    expectUnauthorized(await session(`${head}.${body}.${signature}.`));
    expectUnauthorized(await session(`${token}x`));
  });

  it('refuses a validly signed token of a revoked session', async () => {
    const email = newEmail();
    const first = await signIn(app, email);
    const second = await signIn(app, email);
    const revoke = await app.request('POST', '/auth/revoke-session-by-id', {
      body: { id: second.body.session.id },
      headers: bearer(first.token),
    });
    expect(revoke.status).toBe(200);
    expectUnauthorized(await session(second.token));
    expect((await session(first.token)).status).toBe(200);
  });

  it('refuses a validly signed token of a signed-out session', async () => {
    const { token } = await freshSession();
    const out = await app.request('POST', '/auth/sign-out', { headers: bearer(token) });
    expect(out.status).toBe(200);
    expectUnauthorized(await session(token));
    expectUnauthorized(await app.request('POST', '/auth/refresh', { headers: bearer(token) }));
  });

  it('refuses a token whose jti was rotated by refresh', async () => {
    const { token, claims } = await freshSession();
    app.clock.advance(1000);
    const refreshed = await app.request('POST', '/auth/refresh', { headers: bearer(token) });
    expect(refreshed.status).toBe(200);
    expect(decodeJwt(refreshed.body.token).jti).not.toBe(claims.jti);
    expectUnauthorized(await session(token));
    expectUnauthorized(await app.request('POST', '/auth/refresh', { headers: bearer(token) }));
    // Re-signing the old claims with a fresh expiry does not bring the old jti back.
    const resigned = await signJwt(app.deps.signer, { ...claims, exp: (claims.exp ?? 0) + 60 });
    expectUnauthorized(await session(resigned));
    expect((await session(refreshed.body.token)).status).toBe(200);
  });

  it('refuses an Authorization header that is not Bearer', async () => {
    const { token } = await freshSession();
    for (const authorization of ['Basic xyz', `Basic ${token}`, `Token ${token}`, 'Bearer', 'Bearer a b']) {
      expectUnauthorized(await app.request('GET', '/auth/session', { headers: { authorization } }));
    }
  });
});

describe('sessions of one application presented with another application key', () => {
  it('refuses a session of application A with application B key on session, refresh and list-sessions', async () => {
    const a = await createTestApplication(app, {}, 'App A');
    const b = await createTestApplication(app, {}, 'App B');
    const { token, body } = await signIn(app, newEmail(), { 'x-api-key': a.publicKey });
    expect(body.session.applicationId).toBe(a.application.id);

    for (const key of [b.publicKey, b.secretKey]) {
      const withB = bearer(token, { 'x-api-key': key });
      expectUnauthorized(await app.request('GET', '/auth/session', { headers: withB }));
      expectUnauthorized(await app.request('POST', '/auth/refresh', { headers: withB }));
      expectUnauthorized(await app.request('GET', '/auth/list-sessions', { headers: withB }));
    }

    const withA = bearer(token, { 'x-api-key': a.secretKey });
    const info = await app.request('GET', '/auth/session', { headers: withA });
    expect(info.status).toBe(200);
    expect(info.body.application.id).toBe(a.application.id);
    const list = await app.request('GET', '/auth/list-sessions', { headers: withA });
    expect(list.status).toBe(200);
    expect(list.body.items).toHaveLength(1);
    app.clock.advance(1000);
    const refreshed = await app.request('POST', '/auth/refresh', {
      headers: bearer(token, { 'x-api-key': a.publicKey }),
    });
    expect(refreshed.status).toBe(200);
    expect(refreshed.body.session.id).toBe(body.session.id);
  });

  it('refuses a platform session presented with an application key', async () => {
    const b = await createTestApplication(app, {}, 'App B');
    const { token } = await freshSession();
    expectUnauthorized(await session(token, { 'x-api-key': b.publicKey }));
  });
});

describe('the email claim (it names the account the session reads)', () => {
  it('refuses a validly signed token without an email', async () => {
    const { claims } = await freshSession();
    const { email: _email, ...withoutEmail } = claims;
    expectUnauthorized(await session(await signJwt(app.deps.signer, withoutEmail)));
  });

  it("refuses a validly signed token naming another user's email", async () => {
    const { claims } = await freshSession();
    const other = await freshSession();
    const forged = await signJwt(app.deps.signer, { ...claims, email: other.claims.email });
    expectUnauthorized(await session(forged));
    // The same claims with the right email still resolve: the refusal is the email's doing.
    expect((await session(await signJwt(app.deps.signer, claims))).status).toBe(200);
  });
});
