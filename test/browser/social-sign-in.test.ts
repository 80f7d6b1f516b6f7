import { mkdir } from 'node:fs/promises';
import { createServer, type Server } from 'node:https';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testCertificates } from '../../fixtures/metadata-host.ts';
import { escapeHtml } from '../../shared/html-escape.ts';
import { freePort } from '../../shared/local/ports.ts';
import type { TestApp } from '../support/app.ts';
import { launchBrowser, type TestBrowser } from '../support/browser.ts';
import { newEmail } from '../support/sign-in.ts';
import {
  APP_VERIFIER,
  type SocialProviders,
  startSocialTestApp,
  withChallenge,
} from '../support/social-providers.ts';
import { createOwnedApplication, manage } from '../support/tenancy.ts';

/**
 * Social sign-in in headless Chromium (docs/api.md, "Social sign-in page"): the application's own sign-in
 * page on the service (`GET /auth/social/{applicationId}`), a click on "Continue with OpenID Connect", the
 * real OpenID Connect provider (oauth2-mock-server, whose authorize answers at once), the callback, and the
 * application's return page: an HTTPS page of the test's own origin (return URLs are https only)
 * whose back end trades the one-time code for the session at `POST /auth/social/exchange` and shows
 * its user. The next visit of the sign-in page lists the recent accounts; Forget removes one.
 * `npm run docs:screenshots` runs this file with `DOORCODE_SCREENSHOTS` set to write
 * docs/images/social-sign-in.png (the page with its provider and two recent accounts).
 */
const SCREENSHOTS = process.env.DOORCODE_SCREENSHOTS;

let providers: SocialProviders;
let app: TestApp;
let browser: TestBrowser;
let returnPage: { origin: string; server: Server };
let applicationId: string;
let publicKey: string;

/**
 * The application's return page and back end in one: it takes `code` from its URL, exchanges it
 * with the application's key, and shows the session's user (or what went wrong).
 */
async function startReturnPage() {
  const { key, cert } = await testCertificates();
  const server = createServer({ key, cert }, async (req, res) => {
    const url = new URL(req.url ?? '/', 'https://127.0.0.1');
    let body: string;
    if (url.pathname !== '/after-sign-in') {
      body = '<p id="error">not found</p>';
    } else {
      const exchanged = await app.request('POST', '/auth/social/exchange', {
        headers: { 'x-api-key': publicKey },
        // The page's back end holds the verifier of the challenge its link to the sign-in page carried.
        body: { code: url.searchParams.get('code') ?? '', code_verifier: APP_VERIFIER },
      });
      body =
        exchanged.status === 200
          ? `<p id="user">Signed in as ${escapeHtml(String(exchanged.body.user.email))}</p><p id="state">${escapeHtml(url.searchParams.get('state') ?? '')}</p>`
          : `<p id="error">${exchanged.status} ${escapeHtml(exchanged.text)}</p>`;
    }
    res.writeHead(200, { 'content-type': 'text/html; charset=utf-8', 'cache-control': 'no-store' });
    res.end(`<!doctype html><html><body><h1>Acme Notes</h1>${body}</body></html>`);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { origin: `https://127.0.0.1:${(server.address() as AddressInfo).port}`, server };
}

beforeAll(async () => {
  const port = await freePort();
  // ISSUER is the service's own loopback origin, so the browser keeps its cookies.
  ({ app, providers } = await startSocialTestApp({ port, env: { ISSUER: `http://127.0.0.1:${port}` } }));
  returnPage = await startReturnPage();
  const owned = await createOwnedApplication(app, 'Acme Notes');
  applicationId = owned.applicationId;
  publicKey = owned.publicKey;
  const configured = await manage(
    app,
    'PATCH',
    `/applications/${applicationId}/configuration`,
    { token: owned.owner.token },
    {
      socialProviders: {
        oidc: { enabled: true, clientId: 'notes', clientSecret: 'oidc-secret', issuer: providers.issuer },
      },
      socialReturnUrls: [`${returnPage.origin}/after-sign-in`],
    },
  );
  expect(configured.status, configured.text).toBe(200);
  // The provider's issuer is https://localhost:<port>, certified by the test CA.
  browser = await launchBrowser({ loopbackNames: ['localhost'], ignoreHTTPSErrors: true });
}, 60_000);
afterAll(async () => {
  await browser?.close();
  returnPage?.server.closeAllConnections();
  await new Promise<void>((resolve) => (returnPage ? returnPage.server.close(() => resolve()) : resolve()));
  await app?.close();
});

async function screenshot(page: Page, name: string) {
  if (!SCREENSHOTS) return;
  await mkdir(SCREENSHOTS, { recursive: true });
  await page.screenshot({ path: join(SCREENSHOTS, name), fullPage: true });
}

const signInPage = () => withChallenge(`${app.url}/auth/social/${applicationId}?state=browser-state`);

/** One sign-in as the browser makes it: the page, the provider's button, the return page. */
async function signInWithOidc(page: Page, email: string, name: string) {
  providers.claims.email = email;
  providers.claims.email_verified = true;
  providers.claims.name = name;
  await page.goto(signInPage());
  await Promise.all([
    page.waitForURL(`${returnPage.origin}/**`),
    page.click('text=Continue with OpenID Connect'),
  ]);
}

describe('social sign-in in Chromium', () => {
  it('signs in through the provider to the return page, lists the recent accounts on the next visit, and forgets one', async () => {
    // Prepare: a fresh browser.
    await browser.context.clearCookies();
    const page = await browser.newPage();
    await page.setViewportSize({ width: 640, height: 720 });
    const first = newEmail();
    const second = newEmail();

    // Act: the first sign-in, from the page's button to the return page.
    await signInWithOidc(page, first, 'Ada Lovelace');

    // Assert: the return page got the session of that user, and the application's state back.
    await expect(page.textContent('#user')).resolves.toBe(`Signed in as ${first}`);
    await expect(page.textContent('#state')).resolves.toBe('browser-state');
    const landed = new URL(page.url());
    expect(landed.searchParams.get('code')).toBeTruthy();
    expect(landed.search).not.toContain('token');

    // Act: a second account, then the sign-in page again.
    await signInWithOidc(page, second, 'Grace Hopper');
    await expect(page.textContent('#user')).resolves.toBe(`Signed in as ${second}`);
    await page.goto(signInPage());

    // Assert: both accounts, newest first, masked; the button still there.
    const rows = page.locator('.account');
    await expect(rows.count()).resolves.toBe(2);
    await expect(rows.nth(0).textContent()).resolves.toContain('Grace Hopper');
    await expect(rows.nth(1).textContent()).resolves.toContain('Ada Lovelace');
    await expect(rows.nth(1).textContent()).resolves.toContain(`u***@${first.split('@')[1]}`);
    expect(await page.content()).not.toContain(first);
    await expect(page.locator('a.provider').textContent()).resolves.toBe('Continue with OpenID Connect');
    await screenshot(page, 'social-sign-in.png');

    // Act: Forget the older account.
    await Promise.all([
      page.waitForURL(`${app.url}/auth/social/${applicationId}?**`),
      rows.nth(1).locator('button', { hasText: 'Forget' }).click(),
    ]);

    // Assert: back on the page with its query, without that account; it stays gone on a new visit.
    expect(new URL(page.url()).searchParams.get('state')).toBe('browser-state');
    await expect(page.locator('.account').count()).resolves.toBe(1);
    await expect(page.textContent('body')).resolves.not.toContain('Ada Lovelace');
    await page.goto(signInPage());
    await expect(page.locator('.account').count()).resolves.toBe(1);
    await expect(page.locator('.account').textContent()).resolves.toContain('Grace Hopper');
    await page.close();
  }, 60_000);
});
