/**
 * The user's side of an authorization, driven over HTTP as a browser would drive it (no Chromium:
 * test/browser/oauth-pages.test.ts drives the real pages): a client hands over its authorization
 * URL; the browser follows it with its cookie jar, fills the sign-in bridge's forms (the email,
 * then the code read from the SES emulator's inbox), approves on the consent page (ticking its
 * required checkbox), and stops at the
 * first redirect that leaves the service: the client's redirect URI, whose query is the answer.
 */
import type { TestApp } from './app.ts';
import { freshIp, type TestResponse } from './http-client.ts';
import { latestCode } from './inbox.ts';
import { formOf, ownPage, postForm, setCookiePairs } from './oauth-authorize.ts';

/** A browser: one source address and the cookies the service set. */
export interface Browser {
  ip: string;
  cookies: Map<string, string>;
}

export const newBrowser = (): Browser => ({ ip: freshIp(), cookies: new Map() });

/** What the client's redirect URI received. */
export interface AuthorizationAnswer {
  /** The redirect URI with its query, as the browser would load it. */
  url: URL;
  params: URLSearchParams;
  code: string | null;
  state: string | null;
  iss: string | null;
}

const MAX_STEPS = 12;

function remember(browser: Browser, response: TestResponse) {
  for (const pair of setCookiePairs(response)) {
    const at = pair.indexOf('=');
    if (at > 0) browser.cookies.set(pair.slice(0, at), pair.slice(at + 1));
  }
}

const cookieHeader = (browser: Browser): Record<string, string> =>
  browser.cookies.size === 0
    ? {}
    : { cookie: [...browser.cookies].map(([name, value]) => `${name}=${value}`).join('; ') };

/**
 * Follows `authorizationUrl` (a URL on the service) until the service redirects elsewhere, signing
 * in as `email` if the bridge asks and answering the consent page with `decision`.
 */
export async function authorizeInBrowser(
  app: TestApp,
  authorizationUrl: string | URL,
  email: string,
  options: { browser?: Browser; decision?: 'approve' | 'deny' } = {},
): Promise<AuthorizationAnswer> {
  const browser = options.browser ?? newBrowser();
  const service = new URL(app.url);
  // The pages post to their own origin, which is the service's ISSUER (the e2e apps set it to app.url).
  const origin = new URL(app.deps.config.ISSUER).origin;
  const get = async (url: URL) => {
    const response = await app.request('GET', `${url.pathname}${url.search}`, {
      headers: cookieHeader(browser),
      ip: browser.ip,
    });
    remember(browser, response);
    return response;
  };
  const post = async (path: string, fields: Record<string, string>) => {
    const response = await postForm(
      app,
      path,
      fields,
      ownPage({ ...cookieHeader(browser), origin, 'sec-fetch-site': 'same-origin' }),
      browser.ip,
    );
    remember(browser, response);
    return response;
  };

  let response = await (async () => {
    const url = new URL(authorizationUrl);
    if (url.origin !== service.origin) throw new Error(`the authorization URL is not the service's: ${url}`);
    return get(url);
  })();
  for (let step = 0; step < MAX_STEPS; step++) {
    if (response.status >= 300 && response.status < 400) {
      const target = new URL(String(response.headers.location), app.url);
      if (target.origin !== service.origin) {
        const params = target.searchParams;
        return {
          url: target,
          params,
          code: params.get('code'),
          state: params.get('state'),
          iss: params.get('iss'),
        };
      }
      response = await get(target);
      continue;
    }
    if (response.status !== 200) {
      throw new Error(`the service answered ${response.status} during the authorization: ${response.text}`);
    }
    const form = formOf(response.text);
    if (form.action === '/oauth/login') {
      response = await post(form.action, { ...form.fields, email });
    } else if (form.action === '/oauth/login/verify') {
      response = await post(form.action, { ...form.fields, code: await latestCode(email) });
    } else if (form.action === '/oauth/consent') {
      const decision = options.decision ?? 'approve';
      // Approve needs the form's required checkbox ticked; Deny does not.
      response = await post(form.action, {
        ...form.fields,
        decision,
        ...(decision === 'approve' ? { confirm: 'yes' } : {}),
      });
    } else {
      throw new Error(`unexpected form ${form.action}`);
    }
  }
  throw new Error(`the authorization did not reach the client in ${MAX_STEPS} steps`);
}
