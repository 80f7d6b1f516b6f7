import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CallCounter } from '../../fixtures/call-counter.ts';
import { PLATFORM_ORIGIN, startTestApp, type TestApp } from '../support/app.ts';
import { bearer, newEmail, signIn } from '../support/sign-in.ts';
import { createTestApplication } from '../support/tenancy.ts';

// docs/security.md, "Session tokens": a sibling subdomain can set a cookie of the same name (SameSite=Lax
// treats it as same-site, and the cookie has no __Host- prefix), so the header may hold several values.
const counter = new CallCounter();
let app: TestApp;
beforeAll(async () => {
  app = await startTestApp();
  counter.watch(app.deps);
});
afterAll(() => app.close());

const NAME = 'doorcode.session_token';

/** A live platform session, signed in from a platform origin, and its cookie value. */
async function liveSession() {
  const { token, body } = await signIn(app, newEmail(), { origin: PLATFORM_ORIGIN });
  return { token, userId: body.user.id as string };
}

/** A token with a valid signature whose session was ended: only the table can tell it is dead. */
async function deadToken(): Promise<string> {
  const { token } = await signIn(app, newEmail());
  expect((await app.request('POST', '/auth/sign-out', { headers: bearer(token) })).status).toBe(200);
  return token;
}

const cookieHeader = (tokens: string[]) => tokens.map((token) => `${NAME}=${token}`).join('; ');

async function sessionWithCookies(tokens: string[]) {
  counter.reset();
  const response = await app.request('GET', '/auth/session', { headers: { cookie: cookieHeader(tokens) } });
  return { response, reads: counter.snapshot().dynamodb };
}

describe('GET /auth/session with one cookie name sent several times', () => {
  it('refuses live sessions of two users, in either order', async () => {
    const victim = await liveSession();
    const planted = await liveSession();

    for (const order of [
      [planted.token, victim.token],
      [victim.token, planted.token],
    ]) {
      const { response } = await sessionWithCookies(order);
      expect(response.status).toBe(401);
      expect(response.body.error.code).toBe('UNAUTHORIZED');
    }
  });

  it('uses the live session beside a dead one of another user (a stale cookie from another path)', async () => {
    const good = await liveSession();
    const stale = await deadToken();

    const { response, reads } = await sessionWithCookies([stale, good.token]);
    expect(response.status).toBe(200);
    expect(response.body.user.id).toBe(good.userId);
    expect(reads).toBeLessThanOrEqual(2);
  });

  it('refuses 18 dead tokens beside a good one without reading them all', async () => {
    const good = await liveSession();
    const dead = [];
    for (let i = 0; i < 18; i++) dead.push(await deadToken());

    const { response, reads } = await sessionWithCookies([...dead, good.token]);
    expect(response.status).toBe(401);
    expect(reads).toBe(0);
  });
});

describe('POST /auth/sign-out with one cookie name sent several times', () => {
  it('reads at most the Bearer token and two cookies', async () => {
    const { token } = await liveSession();
    const dead = [];
    for (let i = 0; i < 6; i++) dead.push(await deadToken());
    counter.reset();

    const out = await app.request('POST', '/auth/sign-out', {
      headers: bearer(token, { cookie: cookieHeader(dead), origin: PLATFORM_ORIGIN }),
    });
    expect(out.status).toBe(200);
    // One read per token tried (the dead cookies' sessions are gone, so only the Bearer's is ended).
    expect(counter.snapshot().commands.filter((command) => command === 'BatchGetItemCommand')).toHaveLength(
      3,
    );
    expect((await app.request('GET', '/auth/session', { headers: bearer(token) })).status).toBe(401);
  });
});

describe('a session cookie names its application', () => {
  it("refuses an application's token sent under the platform's cookie name", async () => {
    const { publicKey } = await createTestApplication(app);
    const { token } = await signIn(app, newEmail(), { 'x-api-key': publicKey });
    const info = await app.request('GET', '/auth/session', {
      headers: { cookie: `doorcode.session_token=${token}` },
    });
    expect(info.status).toBe(401);
  });
});
