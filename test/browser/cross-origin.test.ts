import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../support/app.ts';
import { launchBrowser, type PageServer, servePage, type TestBrowser } from '../support/browser.ts';
import { latestCode } from '../support/inbox.ts';
import { newEmail } from '../support/sign-in.ts';
import { createTestApplication } from '../support/tenancy.ts';

/**
 * Real headless Chromium, real CORS. Every request below is a `fetch` made by the page's own JS, so
 * the browser does the preflight, withholds answers it may not read and keeps the cookie jar.
 *
 * The pages and the API all live on 127.0.0.1 on different ports: different origins, same site, so
 * `SameSite=Lax` cookies travel with `credentials: 'include'`. Every request comes from 127.0.0.1,
 * so this file stays well under the per-IP limits (two starts, three verifies).
 */

interface PageAnswer {
  status: number;
  body: any;
  /** The response headers as the page's JS sees them (CORS hides everything not exposed). */
  headers: Record<string, string>;
}
type PageResult = { ok: true; answer: PageAnswer } | { ok: false; name: string; message: string };

interface PageRequest {
  method?: string;
  headers?: Record<string, string>;
  body?: unknown;
  credentials?: 'omit' | 'same-origin' | 'include';
}

/** `fetch(url, init)` run inside the page; a rejected fetch comes back as `{ ok: false }`. */
async function fetchFromPage(page: Page, url: string, request: PageRequest = {}): Promise<PageResult> {
  const init = {
    method: request.method ?? 'GET',
    headers: request.headers ?? {},
    credentials: request.credentials ?? 'same-origin',
    ...(request.body === undefined ? {} : { body: JSON.stringify(request.body) }),
  };
  return page.evaluate(
    async ({ url, init }) => {
      try {
        const response = await fetch(url, init);
        const text = await response.text();
        const headers: Record<string, string> = {};
        response.headers.forEach((value, name) => {
          headers[name] = value;
        });
        return {
          ok: true as const,
          answer: { status: response.status, body: text ? JSON.parse(text) : null, headers },
        };
      } catch (error) {
        const { name, message } = error as Error;
        return { ok: false as const, name, message };
      }
    },
    { url, init },
  );
}

/** The answer the page could read; fails the test when the fetch rejected. */
async function readFromPage(page: Page, url: string, request: PageRequest = {}): Promise<PageAnswer> {
  const result = await fetchFromPage(page, url, request);
  if (!result.ok) throw new Error(`the page's fetch of ${url} rejected: ${result.name}: ${result.message}`);
  return result.answer;
}

const json = { 'content-type': 'application/json' };
const PAGE =
  '<!doctype html><html><head><meta charset="utf-8"><title>doorcode test page</title></head></html>';

let platformPage: PageServer;
let applicationPage: PageServer;
let app: TestApp;
let browser: TestBrowser;

beforeAll(async () => {
  // The page servers come first: the platform page's origin is the API's PLATFORM_ORIGINS.
  [platformPage, applicationPage] = await Promise.all([servePage(PAGE), servePage(PAGE)]);
  [app, browser] = await Promise.all([
    startTestApp({ env: { PLATFORM_ORIGINS: platformPage.origin } }),
    launchBrowser(),
  ]);
});
afterAll(async () => {
  await browser?.close();
  await app?.close();
  await platformPage?.close();
  await applicationPage?.close();
});

async function openPage(server: PageServer): Promise<Page> {
  const page = await browser.newPage();
  await page.goto(`${server.origin}/`);
  return page;
}

describe('a browser on another origin', () => {
  it("signs in on an application's origin with its public key and reads set-auth-token", async () => {
    const { publicKey } = await createTestApplication(app);
    const page = await openPage(applicationPage);
    const email = newEmail();
    const keyed = { ...json, 'x-api-key': publicKey };

    // x-api-key is not a CORS-safelisted header: the browser preflights this POST.
    const start = await readFromPage(page, `${app.url}/auth/code/start`, {
      method: 'POST',
      headers: keyed,
      body: { email },
    });
    expect(start.status).toBe(200);

    const code = await latestCode(email);
    const verify = await readFromPage(page, `${app.url}/auth/code/verify`, {
      method: 'POST',
      headers: keyed,
      body: { email, code },
    });
    expect(verify.status).toBe(200);
    expect(verify.body.token).toEqual(expect.any(String));
    // Readable only because Access-Control-Expose-Headers names it.
    expect(verify.headers['set-auth-token']).toBe(verify.body.token);
    // No cookie for an application's origin, and the browser hides Set-Cookie from JS anyway.
    expect(verify.headers['set-cookie']).toBeUndefined();
    expect(await browser.context.cookies(app.url)).toEqual([]);

    const session = await readFromPage(page, `${app.url}/auth/session`, {
      headers: { authorization: `Bearer ${verify.body.token}`, 'x-api-key': publicKey },
    });
    expect(session.status).toBe(200);
    expect(session.body.user).toMatchObject({ email, emailVerified: true });
    expect(session.body).not.toHaveProperty('token');
    await page.close();
  });

  it('keeps a platform session in the Secure, HttpOnly cookie and ends it on sign-out', async () => {
    const page = await openPage(platformPage);
    const email = newEmail();
    const withCookies = { credentials: 'include' as const };

    const start = await readFromPage(page, `${app.url}/auth/code/start`, {
      ...withCookies,
      method: 'POST',
      headers: json,
      body: { email },
    });
    expect(start.status).toBe(200);

    const code = await latestCode(email);
    const verify = await readFromPage(page, `${app.url}/auth/code/verify`, {
      ...withCookies,
      method: 'POST',
      headers: json,
      body: { email, code },
    });
    expect(verify.status).toBe(200);
    expect(verify.headers['set-auth-token']).toBe(verify.body.token);

    // Chromium stored the Secure cookie although the API is plain http: 127.0.0.1 is a
    // potentially trustworthy origin. The page's JS cannot see it (HttpOnly, another origin).
    const cookies = await browser.context.cookies(app.url);
    expect(cookies).toEqual([
      expect.objectContaining({
        name: 'doorcode.session_token',
        value: verify.body.token,
        domain: '127.0.0.1',
        path: '/',
        httpOnly: true,
        secure: true,
        sameSite: 'Lax',
      }),
    ]);

    // No Authorization header: the session arrives by cookie, so the answer carries the token.
    const session = await readFromPage(page, `${app.url}/auth/session`, withCookies);
    expect(session.status).toBe(200);
    expect(session.body.user).toMatchObject({ email, emailVerified: true });
    expect(session.body.token).toBe(verify.body.token);

    const signOut = await readFromPage(page, `${app.url}/auth/sign-out`, { ...withCookies, method: 'POST' });
    expect(signOut.status).toBe(200);
    expect(signOut.body).toEqual({ signedOut: true });
    expect(await browser.context.cookies(app.url)).toEqual([]);

    const after = await readFromPage(page, `${app.url}/auth/session`, withCookies);
    expect(after.status).toBe(200);
    expect(after.body).toEqual({});
    await page.close();
  });

  it('withholds a credentialed answer from an origin that is not a platform origin', async () => {
    const page = await openPage(applicationPage);
    const url = `${app.url}/auth/session`;

    const credentialed = await fetchFromPage(page, url, { credentials: 'include' });
    // The server answered, but without Access-Control-Allow-Credentials the browser rejects the fetch.
    expect(credentialed).toMatchObject({ ok: false, name: 'TypeError' });

    // The same request without credentials is readable: the origin itself is allowed.
    const plain = await readFromPage(page, url);
    expect(plain.status).toBe(200);
    expect(plain.body).toEqual({});
    await page.close();
  });

  it('lets the page read an error answer: status and envelope', async () => {
    const page = await openPage(applicationPage);
    const answer = await readFromPage(page, `${app.url}/auth/code/verify`, {
      method: 'POST',
      headers: json,
      body: { email: 'not-an-email', code: 'ABCD-EFGH' },
    });
    expect(answer.status).toBe(400);
    expect(answer.body.error.code).toBe('VALIDATION_ERROR');
    expect(answer.headers['x-request-id']).toEqual(expect.any(String));
    await page.close();
  });
});
