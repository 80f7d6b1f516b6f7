import { DeleteCommand } from '@aws-sdk/lib-dynamodb';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { recentAccountsCookieName } from '../../shared/sessions/recent-accounts.ts';
import { keys } from '../../shared/store/keys.ts';
import { PLATFORM_ORIGIN, startTestApp, TEST_ISSUER, type TestApp } from '../support/app.ts';
import {
  type ClientMetadataServer,
  metadataEnv,
  startClientMetadataServer,
} from '../support/client-metadata-server.ts';
import { freshIp } from '../support/http-client.ts';
import { latestCode, mailTo } from '../support/inbox.ts';
import {
  authorizePath,
  bridgeRequestOf,
  cookieFrom,
  hiddenField,
  ownPage,
  pkce,
  postForm,
  signInThroughBridge,
} from '../support/oauth-authorize.ts';
import { newEmail, wrongCode } from '../support/sign-in.ts';
import { createOwnedApplication } from '../support/tenancy.ts';

// Recent accounts (docs/api.md, "Recent accounts"): the signed cookie the sign-in bridge sets, and the list
// route.
let metadata: ClientMetadataServer;
let app: TestApp;
let authorize: string;
let cookieName: string;

beforeAll(async () => {
  metadata = await startClientMetadataServer();
  app = await startTestApp({ env: metadataEnv(metadata) });
  const { applicationId } = await createOwnedApplication(app);
  authorize = authorizePath({
    client_id: metadata.serveClient('/agent.json'),
    redirect_uri: 'https://agent.example.com/callback',
    response_type: 'code',
    code_challenge: pkce().challenge,
    resource: `${TEST_ISSUER}/mcp/${applicationId}`,
  });
  cookieName = recentAccountsCookieName(app.deps.config);
});
afterAll(async () => {
  await app.close();
  await metadata.close();
});

/** A bridge sign-in of `email` in a browser whose recent-accounts cookie is `recent`. */
async function bridgeSignIn(email: string, recent?: string) {
  const requestId = bridgeRequestOf(await app.request('GET', authorize, { ip: freshIp() }));
  return signInThroughBridge(app, requestId, email, recent);
}

const list = (recent: string | undefined, ip = freshIp()) =>
  app.request('GET', '/recent-accounts', { headers: recent ? { cookie: recent } : {}, ip });

/** The user id of `email`'s platform session. */
async function userIdOf(sessionCookie: string): Promise<string> {
  const session = await app.request('GET', '/auth/session', {
    headers: { cookie: sessionCookie },
    ip: freshIp(),
  });
  return session.body.user.id;
}

describe('the recent-accounts cookie', () => {
  it('is set HttpOnly, Secure, SameSite=Lax on / after a bridge sign-in, without the address', async () => {
    // Prepare
    const email = newEmail();

    // Act
    const { cookie, recentCookie, verified } = await bridgeSignIn(email);

    // Assess
    const set = [verified.headers['set-cookie']].flat().map(String);
    const recent = set.find((line) => line.startsWith(`${cookieName}=`)) ?? '';
    expect(recent).toContain('HttpOnly; Secure; SameSite=Lax; Path=/');
    expect(recent).toMatch(/Max-Age=\d+/);
    const value = recentCookie.slice(cookieName.length + 1);
    const decoded = Buffer.from(value.split('.')[1] ?? '', 'base64url').toString('utf8');
    expect(decoded).toContain(await userIdOf(cookie));
    for (const text of [value, decoded, recent]) {
      expect(text).not.toContain(email);
      expect(text).not.toContain(email.split('@')[0]);
    }
  });

  it('lists the account with its masked address, newest first, deduplicated, at most five', async () => {
    // Prepare: six accounts, then the first again.
    const emails = Array.from({ length: 6 }, () => newEmail());
    let recent: string | undefined;
    const ids: string[] = [];
    for (const email of emails) {
      const signedIn = await bridgeSignIn(email, recent);
      recent = signedIn.recentCookie;
      ids.push(await userIdOf(signedIn.cookie));
    }
    recent = (await bridgeSignIn(emails[2] ?? '', recent)).recentCookie;

    // Act
    const response = await list(recent);

    // Assess
    expect(response.status).toBe(200);
    expect(response.headers['cache-control']).toBe('no-store');
    const items = response.body.items as { userId: string; maskedEmail: string; application: unknown }[];
    expect(items.map((item) => item.userId)).toEqual([ids[2], ids[5], ids[4], ids[3], ids[1]]);
    const first = items[0];
    expect(first).toMatchObject({ name: null, image: null, application: null });
    expect(first?.maskedEmail).toBe(`u***@${emails[2]?.split('@')[1]}`);
    expect(JSON.stringify(response.body)).not.toContain(emails[2]);
    expect(Date.parse(String(response.body.items[0].lastUsedAt))).not.toBeNaN();
  });

  it('ignores a tampered, forged or malformed cookie (an empty list, never a 500)', async () => {
    // Prepare
    const { recentCookie } = await bridgeSignIn(newEmail());
    const [version, payload, mac] = recentCookie.slice(cookieName.length + 1).split('.');
    const entries = JSON.parse(Buffer.from(payload ?? '', 'base64url').toString('utf8'));
    entries[0][0] = 'usr_someone_else';
    const swapped = Buffer.from(JSON.stringify(entries)).toString('base64url');
    const forged = [
      `${cookieName}=${version}.${swapped}.${mac}`,
      `${cookieName}=${version}.${payload}.${'0'.repeat(64)}`,
      `${cookieName}=${version}.${payload}`,
      `${cookieName}=v1.!!!.${mac}`,
      `${cookieName}=garbage`,
    ];

    // Act
    const answers = await Promise.all(forged.map((cookie) => list(cookie)));

    // Assess
    for (const answer of answers) {
      expect(answer.status).toBe(200);
      expect(answer.body.items).toEqual([]);
    }
    expect((await list(recentCookie)).body.items).toHaveLength(1);
  });

  it('drops a deleted user from the list and rewrites the cookie without it', async () => {
    // Prepare
    const gone = await bridgeSignIn(newEmail());
    const kept = await bridgeSignIn(newEmail(), gone.recentCookie);
    const goneId = await userIdOf(gone.cookie);
    await app.deps.db.client.send(
      new DeleteCommand({ TableName: app.deps.db.table, Key: keys.user(goneId) }),
    );

    // Act
    const response = await list(kept.recentCookie);

    // Assess
    expect(response.body.items.map((item: { userId: string }) => item.userId)).toEqual([
      await userIdOf(kept.cookie),
    ]);
    const rewritten = [response.headers['set-cookie']].flat().map(String).join('\n');
    expect(rewritten).toContain(`${cookieName}=v1.`);
  });

  it('is a __Host- cookie: Secure, Path=/ and no Domain, so no sibling host can set or shadow it', async () => {
    const { verified } = await bridgeSignIn(newEmail());

    const set = [verified.headers['set-cookie']].flat().map(String);
    const recent = set.find((line) => line.startsWith(`${cookieName}=`)) ?? '';
    expect(cookieName).toBe(`__Host-${app.deps.config.SERVICE_NAME}.recent_accounts`);
    expect(recent).toMatch(/; Secure(;|$)/);
    expect(recent).toMatch(/; Path=\/(;|$)/);
    expect(recent).not.toMatch(/Domain=/i);
  });

  it('ignores an entry last used more than 90 days ago, and drops it on the next write', async () => {
    // Prepare
    const started = app.clock.now();
    const day = 24 * 3600 * 1000;
    try {
      const old = await bridgeSignIn(newEmail());
      const oldId = await userIdOf(old.cookie);
      app.clock.advance(60 * day);
      const recent = await bridgeSignIn(newEmail(), old.recentCookie);
      const recentId = await userIdOf(recent.cookie);
      const bothListed = await list(recent.recentCookie);
      app.clock.advance(30 * day + 60_000);

      // Act
      const listed = await list(recent.recentCookie);
      const next = await bridgeSignIn(newEmail(), recent.recentCookie);

      // Assess
      const ids = (response: { body: { items: { userId: string }[] } }) =>
        response.body.items.map((item) => item.userId);
      expect(ids(bothListed)).toEqual([recentId, oldId]);
      expect(ids(listed)).toEqual([recentId]);
      const [, payload] = next.recentCookie.slice(cookieName.length + 1).split('.');
      const entries = JSON.parse(Buffer.from(payload ?? '', 'base64url').toString('utf8')) as string[][];
      expect(entries.map(([userId]) => userId)).toEqual([await userIdOf(next.cookie), recentId]);
    } finally {
      app.clock.set(started);
    }
  });

  it('answers an empty list without a cookie', async () => {
    const response = await list(undefined);

    expect(response.status).toBe(200);
    expect(response.body).toEqual({ items: [] });
    expect(response.headers['set-cookie']).toBeUndefined();
  });

  it('limits each IP like the code routes: 429 with Retry-After after 30 a minute', async () => {
    // Prepare
    const ip = freshIp();
    for (let i = 0; i < 30; i++) expect((await list(undefined, ip)).status).toBe(200);

    // Act
    const refused = await list(undefined, ip);

    // Assess
    expect(refused.status).toBe(429);
    expect(refused.body.error.code).toBe('RATE_LIMITED');
    expect(Number(refused.headers['retry-after'])).toBeGreaterThan(0);
  });
});

describe('forgetting recent accounts', () => {
  const servicePage = (cookie: string, extra: Record<string, string> = {}) => ({
    cookie,
    origin: new URL(TEST_ISSUER).origin,
    ...extra,
  });

  it('forgets one account: the list and the cookie without it', async () => {
    // Prepare
    const first = await bridgeSignIn(newEmail());
    const second = await bridgeSignIn(newEmail(), first.recentCookie);
    const [firstId, secondId] = [await userIdOf(first.cookie), await userIdOf(second.cookie)];

    // Act
    const response = await app.request('DELETE', `/recent-accounts/${secondId}`, {
      headers: servicePage(second.recentCookie),
      ip: freshIp(),
    });

    // Assess
    expect(response.status).toBe(200);
    expect(response.body.items.map((item: { userId: string }) => item.userId)).toEqual([firstId]);
    const rewritten = cookieFrom(response, cookieName) ?? '';
    expect((await list(rewritten)).body.items.map((item: { userId: string }) => item.userId)).toEqual([
      firstId,
    ]);
  });

  it('forgetting the last account, or all of them, clears the cookie', async () => {
    // Prepare
    const only = await bridgeSignIn(newEmail());
    const two = await bridgeSignIn(newEmail(), only.recentCookie);

    // Act
    const last = await app.request('DELETE', `/recent-accounts/${await userIdOf(only.cookie)}`, {
      headers: servicePage(only.recentCookie),
      ip: freshIp(),
    });
    const all = await app.request('DELETE', '/recent-accounts', {
      headers: servicePage(two.recentCookie),
      ip: freshIp(),
    });

    // Assess
    for (const response of [last, all]) {
      expect(response.status).toBe(200);
      expect(response.body).toEqual({ items: [] });
      const set = [response.headers['set-cookie']].flat().map(String);
      expect(set).toEqual([`${cookieName}=; Max-Age=0; HttpOnly; Secure; SameSite=Lax; Path=/`]);
    }
  });

  it('refuses a change from another page with 403 and leaves the cookie alone', async () => {
    // Prepare
    const { recentCookie } = await bridgeSignIn(newEmail());
    const foreign: Record<string, string>[] = [
      { cookie: recentCookie, origin: 'https://evil.example' },
      // Another platform origin is not the service's own page.
      { cookie: recentCookie, origin: PLATFORM_ORIGIN },
      { cookie: recentCookie, origin: 'null', 'sec-fetch-site': 'cross-site' },
      { cookie: recentCookie, 'sec-fetch-site': 'same-site' },
      { cookie: recentCookie, 'sec-fetch-site': 'none' },
      { cookie: recentCookie },
    ];

    // Act
    const answers = [];
    for (const headers of foreign) {
      answers.push(await app.request('DELETE', '/recent-accounts', { headers, ip: freshIp() }));
      answers.push(await app.request('DELETE', '/recent-accounts/usr_x', { headers, ip: freshIp() }));
    }
    const ownNullOrigin = await app.request('DELETE', '/recent-accounts', {
      headers: { cookie: recentCookie, origin: 'null', 'sec-fetch-site': 'same-origin' },
      ip: freshIp(),
    });

    // Assess
    for (const answer of answers) {
      expect(answer.status).toBe(403);
      expect(answer.body.error.code).toBe('FORBIDDEN');
      expect(answer.headers['set-cookie']).toBeUndefined();
    }
    expect(ownNullOrigin.status).toBe(200);
  });
});

describe('the sign-in bridge with recent accounts', () => {
  it('shows each recent account as a one-click form without its address; one click sends the code', async () => {
    // Prepare
    const email = newEmail();
    const { cookie, recentCookie } = await bridgeSignIn(email);
    const userId = await userIdOf(cookie);
    const requestId = bridgeRequestOf(await app.request('GET', authorize, { ip: freshIp() }));

    // Act
    const page = await app.request('GET', `/oauth/login?request=${requestId}`, {
      headers: { cookie: recentCookie },
      ip: freshIp(),
    });
    const before = (await mailTo(email)).length;
    const started = await postForm(
      app,
      '/oauth/login',
      { request: requestId, account: hiddenField(page.text, 'account') },
      ownPage({ cookie: recentCookie }),
    );

    // Assess
    expect(page.status).toBe(200);
    expect(page.text).toContain('Recent accounts');
    expect(page.text).toContain(`u***@${email.split('@')[1]}`);
    expect(page.text).toContain(`name="account" value="${userId}"`);
    expect(page.text).not.toContain(email);
    expect(started.status).toBe(200);
    expect(started.text).toContain('Enter your code');
    expect((await mailTo(email)).length).toBe(before + 1);
    // The code page names the account masked and carries its id, never its address.
    expect(started.text).not.toContain(email);
    expect(started.text).toContain(`u***@${email.split('@')[1]}`);
    expect(started.text).toContain(`name="account" value="${userId}"`);
  });

  it('signs the chosen recent account in from the code page, which names it only by its id', async () => {
    // Prepare
    const email = newEmail();
    const { recentCookie } = await bridgeSignIn(email);
    const requestId = bridgeRequestOf(await app.request('GET', authorize, { ip: freshIp() }));
    const page = await app.request('GET', `/oauth/login?request=${requestId}`, {
      headers: { cookie: recentCookie },
      ip: freshIp(),
    });
    const account = hiddenField(page.text, 'account');
    await postForm(app, '/oauth/login', { request: requestId, account }, ownPage({ cookie: recentCookie }));

    // Act
    const wrong = await postForm(
      app,
      '/oauth/login/verify',
      { request: requestId, account, code: wrongCode(await latestCode(email)) },
      ownPage({ cookie: recentCookie }),
    );
    const verified = await postForm(
      app,
      '/oauth/login/verify',
      { request: requestId, account, code: await latestCode(email) },
      ownPage({ cookie: recentCookie }),
    );

    // Assess
    expect(wrong.status).toBe(400);
    expect(wrong.text).not.toContain(email);
    expect(wrong.text).toContain(`name="account" value="${account}"`);
    expect(verified.status).toBe(303);
    expect(String(verified.headers.location)).toContain('/oauth/authorize?');
  });

  it("refuses an account that is not in the browser's signed list, and a form with both or neither", async () => {
    // Prepare
    const mine = await bridgeSignIn(newEmail());
    const theirs = await bridgeSignIn(newEmail());
    const theirId = await userIdOf(theirs.cookie);
    const requestId = bridgeRequestOf(await app.request('GET', authorize, { ip: freshIp() }));

    // Act
    const answers = [
      await postForm(
        app,
        '/oauth/login',
        { request: requestId, account: theirId },
        ownPage({ cookie: mine.recentCookie }),
      ),
      await postForm(app, '/oauth/login', { request: requestId, account: theirId }),
      await postForm(
        app,
        '/oauth/login',
        { request: requestId, account: theirId, email: newEmail() },
        ownPage({ cookie: theirs.recentCookie }),
      ),
      await postForm(app, '/oauth/login', { request: requestId }),
    ];

    // Assess
    for (const answer of answers) {
      expect(answer.status).toBe(400);
      expect(answer.headers['content-type']).toMatch(/^text\/html/);
    }
  });

  it('forgets a recent account with its Forget form: 303 back to the email page, with the cookie without it', async () => {
    // Prepare
    const first = await bridgeSignIn(newEmail());
    const second = await bridgeSignIn(newEmail(), first.recentCookie);
    const [firstId, secondId] = [await userIdOf(first.cookie), await userIdOf(second.cookie)];
    const requestId = bridgeRequestOf(await app.request('GET', authorize, { ip: freshIp() }));
    const page = await app.request('GET', `/oauth/login?request=${requestId}`, {
      headers: { cookie: second.recentCookie },
      ip: freshIp(),
    });

    // Act
    const forgotten = await postForm(
      app,
      '/oauth/login/forget',
      { request: requestId, account: secondId },
      ownPage({ cookie: second.recentCookie }),
    );
    const rewritten = cookieFrom(forgotten, cookieName) ?? '';
    const location = new URL(String(forgotten.headers.location));
    const after = await app.request('GET', `${location.pathname}${location.search}`, {
      headers: { cookie: rewritten },
      ip: freshIp(),
    });

    // Assess
    expect(page.text).toContain('action="/oauth/login/forget"');
    expect(page.text).toContain(`name="account" value="${secondId}"`);
    expect(forgotten.status, forgotten.text).toBe(303);
    expect(forgotten.headers.location).toBe(`${TEST_ISSUER}/oauth/login?request=${requestId}`);
    expect(rewritten).toMatch(new RegExp(`^${cookieName}=v1\\.`));
    expect((await list(rewritten)).body.items.map((item: { userId: string }) => item.userId)).toEqual([
      firstId,
    ]);
    expect(after.status).toBe(200);
    expect(after.text).toContain(`name="account" value="${firstId}"`);
    expect(after.text).not.toContain(`value="${secondId}"`);
  });

  it('refuses a Forget from another page (403) or for an unknown request (400) with an HTML page, the cookie left alone', async () => {
    // Prepare
    const mine = await bridgeSignIn(newEmail());
    const account = await userIdOf(mine.cookie);
    const requestId = bridgeRequestOf(await app.request('GET', authorize, { ip: freshIp() }));

    // Act
    const crossSite = await postForm(
      app,
      '/oauth/login/forget',
      { request: requestId, account },
      ownPage({ cookie: mine.recentCookie, origin: 'https://evil.example', 'sec-fetch-site': 'cross-site' }),
    );
    const unknown = await postForm(
      app,
      '/oauth/login/forget',
      { request: 'req_unknown', account },
      ownPage({ cookie: mine.recentCookie }),
    );

    // Assess
    expect(crossSite.status).toBe(403);
    expect(unknown.status).toBe(400);
    for (const answer of [crossSite, unknown]) {
      expect(answer.headers['content-type']).toMatch(/^text\/html/);
      expect(answer.headers['set-cookie']).toBeUndefined();
    }
  });

  it('shows no choices without a valid cookie', async () => {
    const requestId = bridgeRequestOf(await app.request('GET', authorize, { ip: freshIp() }));

    const page = await app.request('GET', `/oauth/login?request=${requestId}`, {
      headers: { cookie: `${cookieName}=v1.e30.00` },
      ip: freshIp(),
    });

    expect(page.status).toBe(200);
    expect(page.text).not.toContain('Recent accounts');
  });
});
