import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildSdk } from '../../scripts/build-sdk.ts';
import { startTestApp, type TestApp } from '../support/app.ts';
import { launchBrowser, type PageServer, servePage, type TestBrowser } from '../support/browser.ts';
import { freshIp } from '../support/http-client.ts';
import { latestCode } from '../support/inbox.ts';
import { bearer, newEmail, signIn } from '../support/sign-in.ts';
import { createTestApplication } from '../support/tenancy.ts';

/**
 * The built SDK (sdk/dist's bundle, built here into a folder of this file's own) in headless
 * Chromium, on a page of its own origin, against the local service: the same bytes a web app loads.
 * Every tab is a page of one browser context, so the tabs share local storage and Web Locks as the
 * tabs of one browser profile do. From 127.0.0.1 the file makes four starts (limit 5 a minute) and
 * three verifies and an approve (limit 10), under the per-IP limits.
 */

/** What the page exposes to the test: the client, and what it saw. */
const PAGE = `<!doctype html><html><head><meta charset="utf-8"><title>doorcode SDK page</title></head>
<body><p id="user">loading</p>
<script type="module">
  import { createClient } from '/sdk.js';
  const params = new URLSearchParams(location.search);
  const client = createClient({ baseUrl: params.get('api'), publicKey: params.get('key') });
  const show = async () => {
    const session = await client.getSession();
    document.getElementById('user').textContent = session ? session.user.email : 'signed out';
  };
  window.client = client;
  window.changes = [];
  window.revoked = 0;
  addEventListener('auth:session-revoked', () => { window.revoked += 1; });
  client.onChange((token) => { window.changes.push(token); show(); });
  await show();
  window.ready = true;
</script></body></html>`;

declare const window: any;
declare const document: any;
declare const navigator: any;
declare const localStorage: any;

let app: TestApp;
let browser: TestBrowser;
let pageServer: PageServer;
let buildDir: string;
let publicKey: string;

beforeAll(async () => {
  buildDir = await mkdtemp(join(tmpdir(), 'doorcode-sdk-browser-'));
  const built = await buildSdk(buildDir);
  const sdk = { contentType: 'text/javascript; charset=utf-8', body: await readFile(built.file, 'utf8') };
  [app, browser, pageServer] = await Promise.all([
    startTestApp(),
    launchBrowser(),
    servePage(PAGE, { '/sdk.js': sdk }),
  ]);
  ({ publicKey } = await createTestApplication(app));
});
afterAll(async () => {
  await browser?.close();
  await app?.close();
  await pageServer?.close();
  if (buildDir) await rm(buildDir, { recursive: true, force: true });
});

/** A new tab of the browser on the page, its client ready. */
async function openTab(): Promise<Page> {
  const page = await browser.newPage();
  const query = new URLSearchParams({ api: app.url, key: publicKey });
  await page.goto(`${pageServer.origin}/?${query}`);
  await page.waitForFunction(() => window.ready === true);
  return page;
}

const shownUser = (page: Page) => page.locator('#user').textContent();

/** Signs in through the page's SDK with the code the SES emulator received. */
async function signInOnPage(page: Page, email = newEmail()) {
  await page.evaluate((email) => window.client.start({ email }), email);
  const code = await latestCode(email);
  const result = await page.evaluate(({ email, code }) => window.client.verify({ email, code }), {
    email,
    code,
  });
  await page.waitForFunction((email) => document.getElementById('user').textContent === email, email);
  return { email, token: result.token as string, sessionId: result.session.id as string };
}

describe('the SDK in a browser', () => {
  it('signs in with the emailed code and shows the user', async () => {
    // Prepare
    const page = await openTab();
    expect(await shownUser(page)).toBe('signed out');

    // Act
    const { email, token } = await signInOnPage(page);

    // Assess
    expect(await shownUser(page)).toBe(email);
    expect(await page.evaluate(() => localStorage.getItem('auth:token'))).toBe(token);
    const session = await app.request('GET', '/auth/session', {
      headers: bearer(token, { 'x-api-key': publicKey }),
    });
    expect(session.body.user.email).toBe(email);
    await page.close();
  });

  it("a second tab follows the first tab's sign-out through the storage event", async () => {
    // Prepare
    const first = await openTab();
    const { email, token } = await signInOnPage(first);
    const second = await openTab();
    expect(await shownUser(second)).toBe(email);

    // Act
    await first.evaluate(() => window.client.signOut());

    // Assess
    await second.waitForFunction(() => document.getElementById('user').textContent === 'signed out');
    expect(await second.evaluate(() => window.changes)).toEqual([null]);
    expect(await second.evaluate(() => window.client.token())).toBeNull();
    // Signed out at the service too, not only in the page.
    const session = await app.request('GET', '/auth/session', {
      headers: bearer(token, { 'x-api-key': publicKey }),
    });
    expect(session.status).toBe(401);
    await Promise.all([first.close(), second.close()]);
  });

  it('a session revoked at the service fires auth:session-revoked and signs the page out', async () => {
    // Prepare: the user's other session (signed in from the test) revokes the page's one.
    const page = await openTab();
    const { email, sessionId } = await signInOnPage(page);
    const other = await signIn(app, email, { 'x-api-key': publicKey });
    const revoked = await app.request('POST', '/auth/revoke-session-by-id', {
      headers: bearer(other.token, { 'x-api-key': publicKey }),
      body: { id: sessionId },
      ip: freshIp(),
    });
    expect(revoked.status).toBe(200);

    // Act
    const error = await page.evaluate(() =>
      window.client.listSessions().then(
        () => null,
        (error: any) => ({ name: error.name, status: error.status, code: error.code }),
      ),
    );

    // Assess
    expect(error).toEqual({ name: 'DoorcodeError', status: 401, code: 'UNAUTHORIZED' });
    expect(await page.evaluate(() => window.revoked)).toBe(1);
    expect(await page.evaluate(() => localStorage.getItem('auth:token'))).toBeNull();
    await page.waitForFunction(() => document.getElementById('user').textContent === 'signed out');
    await page.close();
  });

  it('a device polls while the human approves its code in another tab, then holds the session', async () => {
    // Prepare
    const [device, human] = await Promise.all([openTab(), openTab()]);
    const email = newEmail();
    const started = await device.evaluate((email) => window.client.start({ email }), email);
    const code = await latestCode(email);

    // Act
    const approved = await human.evaluate(({ email, code }) => window.client.approve({ email, code }), {
      email,
      code,
    });
    // interval 0: the first poll goes at once (the service's 5 s apply between polls).
    const polled = await device.evaluate(
      (deviceCode) => window.client.poll({ deviceCode, interval: 0 }),
      started.deviceCode,
    );

    // Assess
    expect(started).toMatchObject({ sent: true, expiresIn: 600, interval: 5 });
    expect(approved).toEqual({ approved: true });
    expect(polled.user.email).toBe(email);
    await human.waitForFunction((email) => document.getElementById('user').textContent === email, email);
    await device.evaluate(() => window.client.signOut());
    await Promise.all([device.close(), human.close()]);
  });

  it('two tabs refreshing at once make exactly one POST /auth/refresh and share its token', async () => {
    // Prepare
    const first = await openTab();
    const { token: before } = await signInOnPage(first);
    const second = await openTab();
    const refreshes: string[] = [];
    browser.context.on('request', (request) => {
      if (request.method() === 'POST' && new URL(request.url()).pathname === '/auth/refresh') {
        refreshes.push(request.url());
      }
    });
    // Hold the lock so both tabs' refresh calls are waiting for it at the same time.
    await first.evaluate(
      () =>
        new Promise<void>((held) => {
          navigator.locks.request('auth:refresh', () => {
            held();
            return new Promise((release) => {
              window.releaseRefreshLock = release;
            });
          });
        }),
    );
    for (const tab of [first, second]) {
      // Not returned: evaluate would wait for the promise.
      await tab.evaluate(() => {
        window.refreshed = window.client.refresh();
      });
    }
    await first.waitForFunction(async () => (await navigator.locks.query()).pending.length === 2);

    // Act
    await first.evaluate(() => window.releaseRefreshLock());
    const tokens = await Promise.all([first, second].map((tab) => tab.evaluate(() => window.refreshed)));

    // Assess
    expect(refreshes).toHaveLength(1);
    expect(tokens[0]).toEqual(expect.any(String));
    expect(tokens[0]).not.toBe(before);
    expect(tokens[1]).toBe(tokens[0]);
    const headers = (token: string) => bearer(token, { 'x-api-key': publicKey });
    expect((await app.request('GET', '/auth/session', { headers: headers(tokens[0]) })).status).toBe(200);
    // The old token stops working (docs/api.md, Endpoints: `POST /auth/refresh`).
    expect((await app.request('GET', '/auth/session', { headers: headers(before) })).status).toBe(401);
    await Promise.all([first.close(), second.close()]);
  });
});
