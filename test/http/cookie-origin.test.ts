import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PLATFORM_ORIGIN, startTestApp, type TestApp } from '../support/app.ts';
import { bearer, newEmail, signIn } from '../support/sign-in.ts';

// docs/security.md, "Requests authenticated by the session cookie": a request authenticated by the session
// cookie that changes state must come from a platform origin, or carry no Origin and a Sec-Fetch-Site saying
// no other site made it. refresh, sign-out and revoke-other-sessions need no body, so a browser sends them
// cross-site without a preflight, and a sibling subdomain is "same-site" for SameSite=Lax.

let app: TestApp;
beforeAll(async () => {
  app = await startTestApp();
});
afterAll(() => app.close());

const cookieOf = (setCookie: string | string[] | undefined) =>
  String(Array.isArray(setCookie) ? setCookie[0] : setCookie).split(';')[0] as string;

async function cookieSession() {
  const { response, token } = await signIn(app, newEmail(), { origin: PLATFORM_ORIGIN });
  return { cookie: cookieOf(response.headers['set-cookie']), token };
}

const stillLive = async (token: string) =>
  (await app.request('GET', '/auth/session', { headers: bearer(token) })).status === 200;

const refusedFrom: Array<[string, Record<string, string>]> = [
  ['a foreign origin', { origin: 'http://evil.test' }],
  ['a sibling subdomain', { origin: 'https://evil.doorcode.test', 'sec-fetch-site': 'same-site' }],
  ['no Origin and a cross-site Sec-Fetch-Site', { 'sec-fetch-site': 'cross-site' }],
  ['no Origin and no Sec-Fetch-Site', {}],
];

describe('cookie-authenticated requests that change state', () => {
  for (const [where, headers] of refusedFrom) {
    it(`refuses refresh, revoke-other-sessions, revoke-by-id and update-user from ${where} with 403`, async () => {
      const { cookie, token } = await cookieSession();
      const calls = [
        app.request('POST', '/auth/refresh', { headers: { cookie, ...headers } }),
        app.request('POST', '/auth/revoke-other-sessions', { headers: { cookie, ...headers } }),
        app.request('POST', '/auth/revoke-session-by-id', {
          headers: { cookie, ...headers },
          body: { id: 'x' },
        }),
        app.request('POST', '/auth/update-user', {
          headers: { cookie, ...headers },
          body: { name: 'Mallory' },
        }),
      ];
      for (const answer of await Promise.all(calls)) {
        expect(answer.status).toBe(403);
        expect(answer.body.error.code).toBe('FORBIDDEN');
      }
      // The refused refresh did not rotate the token away.
      expect(await stillLive(token)).toBe(true);
      const me = await app.request('GET', '/auth/session', { headers: bearer(token) });
      expect(me.body.user.name).toBeNull();
    });

    it(`answers sign-out from ${where} but ends no cookie session`, async () => {
      const { cookie, token } = await cookieSession();
      const out = await app.request('POST', '/auth/sign-out', { headers: { cookie, ...headers } });
      expect(out.status).toBe(200);
      expect(out.body).toEqual({ signedOut: true });
      expect(await stillLive(token)).toBe(true);
      // Clearing the cookie would sign the browser out while its session stays alive.
      expect(out.headers['set-cookie']).toBeUndefined();
    });
  }

  it('accepts them from a platform origin', async () => {
    const { cookie, token } = await cookieSession();
    const refreshed = await app.request('POST', '/auth/refresh', {
      headers: { cookie, origin: PLATFORM_ORIGIN },
    });
    expect(refreshed.status).toBe(200);
    expect(await stillLive(token)).toBe(false);
    expect(await stillLive(refreshed.body.token)).toBe(true);
  });

  it('gives a refresh that came by cookie without an Origin the new cookie', async () => {
    const { cookie, token } = await cookieSession();
    const refreshed = await app.request('POST', '/auth/refresh', {
      headers: { cookie, 'sec-fetch-site': 'same-origin' },
    });
    expect(refreshed.status).toBe(200);
    const renewed = cookieOf(refreshed.headers['set-cookie']);
    expect(renewed).toBe(`doorcode.session_token=${refreshed.body.token}`);
    expect(await stillLive(token)).toBe(false);
    const info = await app.request('GET', '/auth/session', { headers: { cookie: renewed } });
    expect(info.status).toBe(200);
  });

  it('accepts them with no Origin from the service itself or the user (Sec-Fetch-Site same-origin, none)', async () => {
    for (const site of ['same-origin', 'none']) {
      const { cookie } = await cookieSession();
      const answer = await app.request('POST', '/auth/revoke-other-sessions', {
        headers: { cookie, 'sec-fetch-site': site },
      });
      expect(answer.status).toBe(200);
    }
  });

  it('ends the cookie session on sign-out from a platform origin, and clears the cookie', async () => {
    const { cookie, token } = await cookieSession();
    const out = await app.request('POST', '/auth/sign-out', { headers: { cookie, origin: PLATFORM_ORIGIN } });
    expect(await stillLive(token)).toBe(false);
    expect(out.headers['set-cookie']).toEqual([
      expect.stringMatching(/^doorcode\.session_token=; Max-Age=0;/),
    ]);
  });

  it('still lets a cookie read the session from anywhere (reading needs CORS credentials to be seen)', async () => {
    const { cookie } = await cookieSession();
    const info = await app.request('GET', '/auth/session', {
      headers: { cookie, origin: 'http://evil.test' },
    });
    expect(info.status).toBe(200);
    expect(info.headers['access-control-allow-credentials']).toBeUndefined();
  });

  it('does not restrict a Bearer token, which a browser never attaches on its own', async () => {
    const { token } = await signIn(app, newEmail());
    const refreshed = await app.request('POST', '/auth/refresh', {
      headers: bearer(token, { origin: 'http://evil.test' }),
    });
    expect(refreshed.status).toBe(200);
  });
});
