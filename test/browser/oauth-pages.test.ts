import { mkdir } from 'node:fs/promises';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { freePort } from '../../shared/local/ports.ts';
import { startTestApp, type TestApp } from '../support/app.ts';
import { launchBrowser, type PageServer, servePage, type TestBrowser } from '../support/browser.ts';
import {
  type ClientMetadataServer,
  metadataEnv,
  startClientMetadataServer,
} from '../support/client-metadata-server.ts';
import { latestCode, mailTo } from '../support/inbox.ts';
import { authorizePath, pkce } from '../support/oauth-authorize.ts';
import { newEmail } from '../support/sign-in.ts';
import { createOwnedApplication } from '../support/tenancy.ts';

/**
 * The OAuth sign-in bridge and consent page in headless Chromium (docs/oauth.md, "Sign-in bridge" and
 * "Consent"): real forms, real redirects, the browser's own cookie jar. The service listens on 127.0.0.1 with
 * that origin as its ISSUER (its pages post to their own origin); the client is the HTTPS metadata fixture
 * plus a loopback HTTP server as its redirect URI. `npm run docs:screenshots` runs this file with
 * `DOORCODE_SCREENSHOTS` set to write docs/images/oauth-sign-in.png, oauth-consent.png and
 * bridge-recent-accounts.png (the sign-in page with two recent accounts).
 */
const SCREENSHOTS = process.env.DOORCODE_SCREENSHOTS;

let metadata: ClientMetadataServer;
let app: TestApp;
let browser: TestBrowser;
let callback: { origin: string; server: Server };
let framing: PageServer;
let authorizeUrl: string;
let ownerEmail: string;
let ownerToken: string;

/** The client's redirect URI: a loopback page that shows the query it got. */
async function startCallbackServer() {
  const server = createServer((req, res) => {
    res.writeHead(200, { 'content-type': 'text/plain; charset=utf-8' });
    res.end(`callback ${req.url}`);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { origin: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, server };
}

beforeAll(async () => {
  metadata = await startClientMetadataServer();
  const port = await freePort();
  app = await startTestApp({ port, env: { ...metadataEnv(metadata), ISSUER: `http://127.0.0.1:${port}` } });
  callback = await startCallbackServer();
  const owned = await createOwnedApplication(app, 'Acme Notes');
  ownerEmail = owned.owner.email;
  ownerToken = owned.owner.token;
  const clientId = metadata.serveClient('/agent.json', { client_name: 'Acme Agent' });
  authorizeUrl = `${app.url}${authorizePath({
    client_id: clientId,
    redirect_uri: `${callback.origin}/callback`,
    response_type: 'code',
    code_challenge: pkce().challenge,
    code_challenge_method: 'S256',
    resource: `${app.url}/mcp/${owned.applicationId}`,
    state: 'browser-state',
  })}`;
  // Another loopback origin that frames the sign-in page and the authorization URL (the consent
  // page once the browser has a session: SameSite=Lax cookies travel to a same-site frame).
  const toSignIn = await app.request('GET', authorizeUrl.slice(app.url.length));
  const signInUrl = String(toSignIn.headers.location);
  framing = await servePage(
    `<!doctype html><html><body><iframe src="${signInUrl}"></iframe><iframe src="${authorizeUrl}"></iframe></body></html>`,
  );
  browser = await launchBrowser();
}, 60_000);
afterAll(async () => {
  await browser?.close();
  await framing?.close();
  await new Promise<void>((resolve) => callback?.server.close(() => resolve()));
  await app?.close();
  await metadata?.close();
});

/** A new pending authorization request's id (asked without a session: the bridge's redirect). */
async function bridgeRequest(): Promise<string> {
  const toSignIn = await app.request('GET', authorizeUrl.slice(app.url.length));
  return new URL(String(toSignIn.headers.location)).searchParams.get('request') ?? '';
}

async function screenshot(page: Page, name: string) {
  if (!SCREENSHOTS) return;
  await mkdir(SCREENSHOTS, { recursive: true });
  await page.screenshot({ path: join(SCREENSHOTS, name), fullPage: true });
}

describe('the OAuth pages in Chromium', () => {
  it('signs in by the emailed code, approves, and lands on the redirect URI with code, state and iss', async () => {
    const page = await browser.newPage();
    await page.setViewportSize({ width: 640, height: 720 });

    // The authorize URL without a session lands on the sign-in bridge.
    await page.goto(authorizeUrl);
    expect(page.url()).toContain('/oauth/login?request=');
    await expect(page.textContent('body')).resolves.toContain('Acme Notes');
    await screenshot(page, 'oauth-sign-in.png');

    // Email, then the emailed code (the owner's account: a member with a role on the application).
    await page.fill('#email', ownerEmail);
    await Promise.all([page.waitForURL(/\/oauth\/login$/), page.click('button[type=submit]')]);
    await page.fill('#code', await latestCode(ownerEmail));
    await Promise.all([page.waitForURL(/\/oauth\/authorize\?/), page.click('button[type=submit]')]);

    // The consent page names the client, the application and the scopes.
    const consent = (await page.textContent('body')) ?? '';
    expect(consent).toContain('Acme Agent');
    expect(consent).toContain('Acme Notes');
    expect(consent).toContain('auth:write');
    await screenshot(page, 'oauth-consent.png');

    // Approve without the required checkbox: the browser does not send the form.
    const consentUrl = page.url();
    const consentPosts: string[] = [];
    page.on('request', (request) => {
      if (request.method() === 'POST') consentPosts.push(request.url());
    });
    await page.click('button[value=approve]');
    await page.waitForTimeout(500);
    expect(consentPosts).toEqual([]);
    expect(page.url()).toBe(consentUrl);
    await expect(page.locator('input[name=confirm]:invalid').count()).resolves.toBe(1);

    // Tick it and approve: the 303 goes on to the client's redirect URI.
    await page.check('input[name=confirm]');
    await Promise.all([page.waitForURL(`${callback.origin}/**`), page.click('button[value=approve]')]);
    const landed = new URL(page.url());
    expect(landed.pathname).toBe('/callback');
    expect(landed.searchParams.get('code')).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(landed.searchParams.get('state')).toBe('browser-state');
    expect(landed.searchParams.get('iss')).toBe(app.deps.config.ISSUER);
    await page.close();
  }, 60_000);

  it('shows a user with no role on the application an access_denied page whose link alone leads to the redirect URI', async () => {
    // Prepare: a fresh browser state and an address with no membership of the application's organization.
    await browser.context.clearCookies();
    // Every sign-in of this file comes from 127.0.0.1: a new minute of the per-IP start limit (5).
    app.clock.advance(61_000);
    const page = await browser.newPage();
    const email = newEmail();
    await page.goto(authorizeUrl);
    await page.fill('#email', email);
    await Promise.all([page.waitForURL(/\/oauth\/login$/), page.click('button[type=submit]')]);
    await page.fill('#code', await latestCode(email));

    // Act: the verify's 303 to /oauth/authorize answers a page, not a redirect to the client.
    await Promise.all([page.waitForURL(/\/oauth\/authorize\?/), page.click('button[type=submit]')]);
    await expect(page.textContent('body')).resolves.toContain('access_denied');
    expect(new URL(page.url()).origin).toBe(app.url);

    // Assess: the user may follow the link, which carries the error, state and iss.
    await Promise.all([page.waitForURL(`${callback.origin}/**`), page.click('a')]);
    const landed = new URL(page.url());
    expect(landed.searchParams.get('error')).toBe('access_denied');
    expect(landed.searchParams.get('state')).toBe('browser-state');
    expect(landed.searchParams.get('iss')).toBe(app.deps.config.ISSUER);
    await page.close();
  }, 60_000);

  it('refuses to render the sign-in and consent pages inside a frame of another origin', async () => {
    // Prepare: the owner signed in (SameSite=Lax cookies travel to a frame of the same site), and
    // the authorization URL shows this browser the consent page when it is not framed.
    await browser.context.clearCookies();
    await browser.context.addCookies([
      {
        name: `${app.deps.config.SERVICE_NAME}.session_token`,
        value: ownerToken,
        url: app.url,
        httpOnly: true,
        secure: true,
        sameSite: 'Lax',
      },
    ]);
    const page = await browser.newPage();
    await page.goto(authorizeUrl);
    await expect(page.textContent('body')).resolves.toContain('Approve');

    // Act: record what the service answered each frame's navigation.
    const served: { path: string; status: number }[] = [];
    page.on('response', (response) => {
      const request = response.request();
      if (!request.isNavigationRequest() || request.frame() === page.mainFrame()) return;
      const url = new URL(response.url());
      if (url.origin !== app.url) return;
      served.push({ path: url.pathname, status: response.status() });
    });
    await page.goto(framing.origin);
    await page.waitForLoadState('load');

    // Assess: the frames asked for the sign-in page and the consent page (a 200 of /oauth/authorize
    // is the consent page: an error would be a 302 or a 400), and Chromium showed its blocked-frame
    // error page instead of either.
    const frames = page.frames().filter((frame) => frame !== page.mainFrame());
    expect(frames).toHaveLength(2);
    expect(served.map(({ path, status }) => `${status} ${path}`).sort()).toEqual([
      '200 /oauth/authorize',
      '200 /oauth/login',
    ]);
    for (const frame of frames) {
      expect(frame.url()).toMatch(/^chrome-error:\/\//);
      await expect(frame.content()).resolves.toContain('ERR_BLOCKED_BY_RESPONSE');
      const text = (await frame.textContent('body').catch(() => '')) ?? '';
      expect(text).not.toContain('Approve');
      expect(text).not.toContain('Send me a code');
    }
    await page.close();
  }, 60_000);

  it('shows a recent account on the sign-in page, and one click on it sends that account the code', async () => {
    // Prepare: a browser signs in once through the bridge (its recent-accounts cookie is set).
    const page = await browser.newPage();
    const email = newEmail();
    await page.goto(`${app.url}/oauth/login?request=${await bridgeRequest()}`);
    await page.fill('#email', email);
    await Promise.all([
      page.waitForURL(/\/oauth\/login$/),
      page.click('form:has(#email) button[type=submit]'),
    ]);
    await page.fill('#code', await latestCode(email));
    await Promise.all([page.waitForURL(/\/oauth\/authorize\?/), page.click('button[type=submit]')]);

    // Act: the sign-in page of a new request, then a click on the newest recent account.
    await page.goto(`${app.url}/oauth/login?request=${await bridgeRequest()}`);
    const choice = page.locator('form.recent button').first();
    const label = (await choice.textContent()) ?? '';
    const html = await page.content();
    const before = (await mailTo(email)).length;
    await Promise.all([page.waitForURL(/\/oauth\/login$/), choice.click()]);

    // Assess: the masked address only, then the code form and a new email to that address.
    expect(label).toContain(`u***@${email.split('@')[1]}`);
    expect(html).not.toContain(email);
    await expect(page.textContent('body')).resolves.toContain('Enter your code');
    expect((await mailTo(email)).length).toBe(before + 1);
    await page.close();
  }, 60_000);

  it('lists the accounts of earlier bridge sign-ins on the next visit; Forget removes one; a choice signs in', async () => {
    // Prepare: a browser with no cookie signs in through the bridge twice, with two addresses.
    await browser.context.clearCookies();
    // Every sign-in of this file comes from 127.0.0.1: a new minute of the per-IP start limit (5).
    app.clock.advance(61_000);
    const page = await browser.newPage();
    await page.setViewportSize({ width: 640, height: 900 });
    // Two domains, so the two masked addresses differ on the page.
    const [first, second] = [newEmail('ada.example.test'), newEmail('bob.example.test')];
    for (const email of [first, second]) {
      await page.goto(`${app.url}/oauth/login?request=${await bridgeRequest()}`);
      await page.fill('#email', email);
      await Promise.all([
        page.waitForURL(/\/oauth\/login$/),
        page.click('form:has(#email) button[type=submit]'),
      ]);
      await page.fill('#code', await latestCode(email));
      await Promise.all([page.waitForURL(/\/oauth\/authorize\?/), page.click('button[type=submit]')]);
    }
    const masked = (email: string) => `u***@${email.split('@')[1]}`;
    const choices = () => page.locator('form.recent button').allTextContents();

    // Act 1: the next visit to the bridge shows both, newest first.
    const requestId = await bridgeRequest();
    await page.goto(`${app.url}/oauth/login?request=${requestId}`);
    const listed = await choices();
    const cookies = await browser.context.cookies(app.url);
    await screenshot(page, 'bridge-recent-accounts.png');

    // Act 2: Forget on the older one: back to the same page without it.
    await Promise.all([
      page.waitForURL(`${app.url}/oauth/login?request=${requestId}`),
      page
        .locator('.choice', { hasText: masked(first) })
        .locator('form.forget button')
        .click(),
    ]);
    const afterForget = await choices();

    // Act 3: the remaining choice sends its address a code, which signs the browser in.
    const before = (await mailTo(second)).length;
    await Promise.all([page.waitForURL(/\/oauth\/login$/), page.locator('form.recent button').click()]);
    const codePage = (await page.textContent('body')) ?? '';
    const mails = (await mailTo(second)).length;
    await page.fill('#code', await latestCode(second));
    await Promise.all([page.waitForURL(/\/oauth\/authorize\?/), page.click('button[type=submit]')]);

    // Assess
    expect(listed).toEqual([masked(second), masked(first)]);
    // RFC 6265bis §4.1.3.2: Chromium keeps a __Host- cookie set over http on loopback (a secure context).
    const recent = cookies.find((cookie) => cookie.name.endsWith('.recent_accounts'));
    expect(recent?.name).toBe(`__Host-${app.deps.config.SERVICE_NAME}.recent_accounts`);
    expect(recent).toMatchObject({ secure: true, httpOnly: true, path: '/', sameSite: 'Lax' });
    expect(afterForget).toEqual([masked(second)]);
    expect(codePage).toContain('Enter your code');
    expect(codePage).toContain(masked(second));
    expect(mails).toBe(before + 1);
    const session = (await browser.context.cookies(app.url)).find(
      (cookie) => cookie.name === `${app.deps.config.SERVICE_NAME}.session_token`,
    );
    const signedIn = await app.request('GET', '/auth/session', {
      headers: { cookie: `${session?.name}=${session?.value}` },
    });
    expect(signedIn.body.user.email).toBe(second);
    await page.close();
  });
});
