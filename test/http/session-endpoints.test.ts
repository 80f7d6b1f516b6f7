import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MAX_IMAGE_BYTES, MAX_IMAGE_CHARS, MAX_IMAGE_URL_CHARS } from '../../shared/users/schemas.ts';
import { PLATFORM_ORIGIN, startTestApp, TEST_ISSUER, type TestApp } from '../support/app.ts';
import { expectError } from '../support/expect-error.ts';
import { printableNames, unprintableNames } from '../support/names.ts';
import { bearer, newEmail, signIn } from '../support/sign-in.ts';
import { createTestApplication } from '../support/tenancy.ts';

let app: TestApp;
beforeAll(async () => {
  app = await startTestApp();
});
afterAll(() => app.close());

const cookieHeader = (setCookie: string | string[] | undefined) => {
  const first = Array.isArray(setCookie) ? setCookie[0] : setCookie;
  return first?.split(';')[0] ?? '';
};

const PNG_1x1 =
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==';

describe('GET /auth/session', () => {
  it('answers an anonymous caller with an empty SessionInfo', async () => {
    const response = await app.request('GET', '/auth/session');
    expect(response.status).toBe(200);
    expect(response.body).toEqual({});
  });

  it('answers a valid key without a session with the application alone', async () => {
    const { application, publicKey } = await createTestApplication(app);
    const response = await app.request('GET', '/auth/session', { headers: { 'x-api-key': publicKey } });
    expect(response.status).toBe(200);
    expect(response.body).toEqual({
      application: { id: application.id, name: 'Acme Notes', logoUrl: null, branding: {} },
    });
  });

  it('refuses an unknown key with 401', async () => {
    const response = await app.request('GET', '/auth/session', {
      headers: { 'x-api-key': `pu_${'x'.repeat(32)}` },
    });
    expect(response.status).toBe(401);
    expect(response.body.error.code).toBe('UNAUTHORIZED');
  });

  it('includes the token only when it came by cookie or the Bearer token did not resolve', async () => {
    const { response, token } = await signIn(app, newEmail(), { origin: PLATFORM_ORIGIN });
    const cookie = cookieHeader(response.headers['set-cookie']);
    expect(cookie).toBe(`doorcode.session_token=${token}`);

    const byBearer = await app.request('GET', '/auth/session', { headers: bearer(token) });
    expect(byBearer.status).toBe(200);
    expect(byBearer.body.user).toMatchObject({ email: expect.any(String) });
    expect(byBearer.body).not.toHaveProperty('token');

    const byCookie = await app.request('GET', '/auth/session', { headers: { cookie } });
    expect(byCookie.status).toBe(200);
    expect(byCookie.body.token).toBe(token);

    const staleBearer = await app.request('GET', '/auth/session', {
      headers: { ...bearer('a.b.c'), cookie },
    });
    expect(staleBearer.status).toBe(200);
    expect(staleBearer.body.token).toBe(token);
  });

  it('refuses a Bearer token that does not resolve when there is no cookie', async () => {
    const response = await app.request('GET', '/auth/session', { headers: bearer('a.b.c') });
    expect(response.status).toBe(401);
    expect(response.body.error.code).toBe('UNAUTHORIZED');
  });

  it('returns the application of an application session', async () => {
    const { application, publicKey } = await createTestApplication(app);
    const { token } = await signIn(app, newEmail(), { 'x-api-key': publicKey });
    const response = await app.request('GET', '/auth/session', {
      headers: bearer(token, { 'x-api-key': publicKey }),
    });
    expect(response.status).toBe(200);
    expect(response.body.application).toEqual({
      id: application.id,
      name: 'Acme Notes',
      logoUrl: null,
      branding: {},
    });
    expect(response.body.session.applicationId).toBe(application.id);
  });
});

describe('the session cookie', () => {
  it('is issued only for a platform origin, HttpOnly, Secure, SameSite=Lax, Path=/', async () => {
    const { response } = await signIn(app, newEmail(), { origin: PLATFORM_ORIGIN });
    const [setCookie] = response.headers['set-cookie'] as string[];
    expect(setCookie).toMatch(/^doorcode\.session_token=[\w-]+\.[\w-]+\.[\w-]+; Max-Age=604800; /);
    expect(setCookie).toContain('HttpOnly');
    expect(setCookie).toContain('Secure');
    expect(setCookie).toContain('SameSite=Lax');
    expect(setCookie).toContain('Path=/');
    expect(setCookie).not.toContain('Domain');

    const other = await signIn(app, newEmail(), { origin: 'https://evil.example' });
    expect(other.response.headers['set-cookie']).toBeUndefined();
  });

  it('is named after the application for an application session', async () => {
    const { application, publicKey } = await createTestApplication(app);
    const { response } = await signIn(app, newEmail(), { origin: PLATFORM_ORIGIN, 'x-api-key': publicKey });
    expect(cookieHeader(response.headers['set-cookie'])).toMatch(
      new RegExp(`^doorcode\\.session_token\\.${application.id}=`),
    );
  });
});

describe('POST /auth/refresh', () => {
  it('refuses an anonymous caller', async () => {
    const response = await app.request('POST', '/auth/refresh');
    expect(response.status).toBe(401);
    expect(response.body.error.code).toBe('UNAUTHORIZED');
  });

  it('refreshes a cookie session and sets the new cookie', async () => {
    const { response } = await signIn(app, newEmail(), { origin: PLATFORM_ORIGIN });
    const cookie = cookieHeader(response.headers['set-cookie']);
    const refreshed = await app.request('POST', '/auth/refresh', {
      headers: { cookie, origin: PLATFORM_ORIGIN },
    });
    expect(refreshed.status).toBe(200);
    expect(refreshed.headers['set-auth-token']).toBe(refreshed.body.token);
    expect(cookieHeader(refreshed.headers['set-cookie'])).toBe(
      `doorcode.session_token=${refreshed.body.token}`,
    );
    expect((await app.request('GET', '/auth/session', { headers: { cookie } })).status).toBe(401);
  });
});

describe('POST /auth/sign-out', () => {
  it('answers 200 { signedOut: true } without a session, and with an invalid one', async () => {
    for (const headers of [{}, bearer('not-a-token'), bearer('a.b.c')]) {
      const response = await app.request('POST', '/auth/sign-out', { headers });
      expect(response.status).toBe(200);
      expect(response.body).toEqual({ signedOut: true });
    }
  });

  it("ends every session of the user in this application, and no one else's", async () => {
    const email = newEmail();
    const first = await signIn(app, email);
    const second = await signIn(app, email);
    const stranger = await signIn(app);
    expect((await app.request('POST', '/auth/sign-out', { headers: bearer(first.token) })).status).toBe(200);
    expect((await app.request('GET', '/auth/session', { headers: bearer(first.token) })).status).toBe(401);
    expect((await app.request('GET', '/auth/session', { headers: bearer(second.token) })).status).toBe(401);
    expect((await app.request('GET', '/auth/session', { headers: bearer(stranger.token) })).status).toBe(200);
  });
});

describe('POST /auth/revoke-session-by-id and /auth/revoke-other-sessions', () => {
  it("silently ignores another user's session id", async () => {
    const mine = await signIn(app);
    const theirs = await signIn(app);
    const response = await app.request('POST', '/auth/revoke-session-by-id', {
      body: { id: theirs.body.session.id },
      headers: bearer(mine.token),
    });
    expect(response.status).toBe(200);
    expect(response.body).toEqual({ revoked: true });
    expect((await app.request('GET', '/auth/session', { headers: bearer(theirs.token) })).status).toBe(200);
  });

  it('requires an id', async () => {
    const mine = await signIn(app);
    const response = await app.request('POST', '/auth/revoke-session-by-id', {
      body: {},
      headers: bearer(mine.token),
    });
    expect(response.status).toBe(400);
    expect(response.body.error.code).toBe('VALIDATION_ERROR');
  });

  it('ends the other sessions and keeps the calling one', async () => {
    const email = newEmail();
    const sessions = [await signIn(app, email), await signIn(app, email), await signIn(app, email)];
    const [keep, ...others] = sessions;
    const response = await app.request('POST', '/auth/revoke-other-sessions', {
      headers: bearer(keep!.token),
    });
    expect(response.status).toBe(200);
    expect(response.body).toEqual({ revoked: true, count: 2 });
    expect((await app.request('GET', '/auth/session', { headers: bearer(keep!.token) })).status).toBe(200);
    for (const other of others) {
      expect((await app.request('GET', '/auth/session', { headers: bearer(other.token) })).status).toBe(401);
    }
  });

  it('need a session', async () => {
    for (const path of ['/auth/revoke-other-sessions', '/auth/list-sessions']) {
      const method = path === '/auth/list-sessions' ? 'GET' : 'POST';
      const response = await app.request(method, path);
      expect(response.status).toBe(401);
      expect(response.body.error.code).toBe('UNAUTHORIZED');
    }
  });
});

describe('POST /auth/update-user', () => {
  const update = async (token: string, body: unknown) =>
    app.request('POST', '/auth/update-user', { body, headers: bearer(token) });

  it('changes the name, visible at once and on the next sign-in', async () => {
    const email = newEmail();
    const { token } = await signIn(app, email);
    const response = await update(token, { name: '  Grace Hopper ' });
    expect(response.status).toBe(200);
    expect(response.body.user).toMatchObject({ email, name: 'Grace Hopper' });
    expect((await app.request('GET', '/auth/session', { headers: bearer(token) })).body.user.name).toBe(
      'Grace Hopper',
    );
    expect((await signIn(app, email)).body.user.name).toBe('Grace Hopper');
  });

  it('accepts an https URL, a small PNG data URL (answered as the URL of its stored bytes), and the empty string to remove the photo', async () => {
    const { token } = await signIn(app);
    expect((await update(token, { image: 'https://cdn.example/me.png' })).body.user.image).toBe(
      'https://cdn.example/me.png',
    );
    const png = Buffer.from(PNG_1x1, 'base64');
    const uploaded = (await update(token, { image: `data:image/png;base64,${PNG_1x1}` })).body.user.image;
    expect(uploaded).toMatch(new RegExp(`^${TEST_ISSUER}/images/[A-Za-z0-9_-]{24}[.]png$`));
    expect((await app.request('GET', new URL(uploaded).pathname)).bytes).toEqual(png);
    const removed = await update(token, { image: '' });
    expect(removed.status).toBe(200);
    expect(removed.body.user.image).toBeNull();
    expect(
      (await app.request('GET', '/auth/session', { headers: bearer(token) })).body.user.image,
    ).toBeNull();
    expect((await app.request('GET', new URL(uploaded).pathname)).status).toBe(404);
  });

  it.each([
    ['an empty body', {}],
    ['an empty name', { name: '' }],
    ['a name of 121 characters', { name: 'x'.repeat(121) }],
    ['an email change', { email: 'new@example.test' }],
    ['an http URL', { image: 'http://cdn.example/me.png' }],
    ['a data URL of another type', { image: `data:image/svg+xml;base64,${PNG_1x1}` }],
    ['a data URL whose bytes are not the declared type', { image: `data:image/jpeg;base64,${PNG_1x1}` }],
    [
      'a decoded image over 500 KB',
      { image: `data:image/png;base64,${Buffer.alloc(MAX_IMAGE_BYTES + 1).toString('base64')}` },
    ],
    [
      `an https URL over ${MAX_IMAGE_URL_CHARS} characters`,
      { image: `https://cdn.example/${'a'.repeat(MAX_IMAGE_URL_CHARS)}` },
    ],
    ['a name of the wrong type', { name: 42 }],
  ])('refuses %s with 400 VALIDATION_ERROR', async (_, body) => {
    const { token } = await signIn(app);
    const response = await update(token, body);
    expect(response.status).toBe(400);
    expect(response.body.error.code).toBe('VALIDATION_ERROR');
  });

  it('refuses an image string over 716800 characters by its length, before decoding it', async () => {
    const { token } = await signIn(app);
    const response = await update(token, { image: `data:image/png;base64,${'A'.repeat(MAX_IMAGE_CHARS)}` });
    expect(response.status).toBe(400);
    expect(response.body.error.details.issues).toEqual([
      { path: 'image', message: expect.stringContaining(String(MAX_IMAGE_CHARS)) },
    ]);
  });

  it('stores the largest image allowed (500 KB, beyond one DynamoDB item) and answers its URL everywhere', async () => {
    const email = newEmail();
    const { token } = await signIn(app, email);
    const png = Buffer.alloc(MAX_IMAGE_BYTES);
    Buffer.from('89504e470d0a1a0a', 'hex').copy(png);
    for (let i = 8; i < png.length; i++) png[i] = (i * 7919) % 251;
    const image = `data:image/png;base64,${png.toString('base64')}`;
    expect(image.length).toBeLessThanOrEqual(MAX_IMAGE_CHARS);
    expect(image.length).toBeGreaterThan(400 * 1024);

    const updated = await update(token, { image });
    expect(updated.status).toBe(200);
    const url = updated.body.user.image;
    expect(url).toMatch(new RegExp(`^${TEST_ISSUER}/images/[A-Za-z0-9_-]{24}[.]png$`));
    expect((await app.request('GET', '/auth/session', { headers: bearer(token) })).body.user.image).toBe(url);
    expect((await signIn(app, email)).body.user.image).toBe(url);
    expect((await app.request('GET', new URL(url).pathname)).bytes).toEqual(png);

    const longest = `https://cdn.example/${'a'.repeat(MAX_IMAGE_URL_CHARS - 'https://cdn.example/'.length)}`;
    expect((await update(token, { image: longest })).status).toBe(200);
    expect((await app.request('GET', '/auth/session', { headers: bearer(token) })).body.user.image).toBe(
      longest,
    );
    expect((await app.request('GET', new URL(url).pathname)).status).toBe(404);

    expect((await update(token, { image: '' })).status).toBe(200);
    expect((await signIn(app, email)).body.user.image).toBeNull();
  });

  it('stores an https URL in its ASCII form, and refuses one whose encoded form is too long', async () => {
    const { token } = await signIn(app);
    // 1 + 800 characters, 20 + 7200 once encoded: within MAX_IMAGE_URL_CHARS.
    const url = `https://cdn.example/${'中'.repeat(800)}`;
    const stored = await update(token, { image: url });
    expect(stored.status).toBe(200);
    expect(stored.body.user.image).toBe(new URL(url).href);
    expect(stored.body.user.image).toMatch(/^[\x20-\x7e]+$/);
    expect((await app.request('GET', '/auth/session', { headers: bearer(token) })).body.user.image).toBe(
      new URL(url).href,
    );
    const tooLong = await update(token, { image: `https://cdn.example/${'中'.repeat(1000)}` });
    expect(tooLong.status).toBe(400);
    expect(tooLong.body.error.code).toBe('VALIDATION_ERROR');
  });

  it.each(unprintableNames)(
    'refuses a name with %s with 400 VALIDATION_ERROR and keeps the stored name',
    async (_, name) => {
      const { token } = await signIn(app);
      expect((await update(token, { name: 'Ada' })).status).toBe(200);

      const response = await update(token, { name });

      expectError(response, 400, 'VALIDATION_ERROR');
      expect(response.body.error.details.issues).toEqual([{ path: 'name', message: expect.any(String) }]);
      expect((await app.request('GET', '/auth/session', { headers: bearer(token) })).body.user.name).toBe(
        'Ada',
      );
    },
  );

  it('accepts names in any script, with accents and emoji', async () => {
    const { token } = await signIn(app);
    for (const name of printableNames) expect((await update(token, { name })).body.user.name).toBe(name);
  });

  it('accepts a name of exactly 120 characters', async () => {
    const { token } = await signIn(app);
    expect((await update(token, { name: 'x'.repeat(120) })).status).toBe(200);
  });
});
