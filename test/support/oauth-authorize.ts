/**
 * Driving `GET /oauth/authorize`, the sign-in bridge and the consent POST over HTTP, as a browser
 * would: forms posted from the service's own origin (ISSUER), the platform cookie carried by hand.
 */
import { createHash, randomBytes } from 'node:crypto';
import { formOf as parseForm } from '../../fixtures/html-form.ts';
import { recentAccountsCookieName } from '../../shared/sessions/recent-accounts.ts';
import { TEST_ISSUER, type TestApp } from './app.ts';
import { freshIp, type TestResponse } from './http-client.ts';
import { latestCode } from './inbox.ts';

/** A PKCE S256 pair (RFC 7636 §4.1, §4.2). */
export function pkce() {
  const verifier = randomBytes(32).toString('base64url');
  return { verifier, challenge: createHash('sha256').update(verifier).digest('base64url') };
}

/** The path of an authorization request with `parameters` (undefined ones left out). */
export function authorizePath(parameters: Record<string, string | undefined>): string {
  const query = new URLSearchParams();
  for (const [name, value] of Object.entries(parameters)) if (value !== undefined) query.append(name, value);
  return `/oauth/authorize?${query}`;
}

/** Headers of a form posted by the service's own page. */
export const ownPage = (extra: Record<string, string> = {}) => ({
  origin: new URL(TEST_ISSUER).origin,
  'content-type': 'application/x-www-form-urlencoded',
  ...extra,
});

/** Posts `fields` as a form from the service's own page. */
export function postForm(
  app: TestApp,
  path: string,
  fields: Record<string, string>,
  headers: Record<string, string> = ownPage(),
  ip = freshIp(),
): Promise<TestResponse> {
  return app.request('POST', path, { raw: new URLSearchParams(fields).toString(), headers, ip });
}

/** The `name=value` pairs of the cookies an answer sets, in its order (attributes left out). */
export function setCookiePairs(response: TestResponse): string[] {
  const set = response.headers['set-cookie'];
  const all = Array.isArray(set) ? set : set ? [set] : [];
  return all.map((cookie) => cookie.split(';')[0] ?? '');
}

/** The `name=value` of the cookie an answer sets under `name`. */
export const cookieFrom = (response: TestResponse, name: string): string | undefined =>
  setCookiePairs(response).find((pair) => pair.startsWith(`${name}=`));

/** The request id of a redirect to the sign-in bridge. */
export const bridgeRequestOf = (response: TestResponse): string =>
  new URL(String(response.headers.location)).searchParams.get('request') ?? '';

/** The action of the page's first form and its hidden fields (fixtures/html-form.ts); throws for a page without one. */
export function formOf(html: string): { action: string; fields: Record<string, string> } {
  const form = parseForm(html);
  if (!form) throw new Error(`no form in the page: ${html.slice(0, 300)}`);
  return form;
}

/** The value of a hidden field of a page (the first of that name), unescaped. */
export function hiddenField(html: string, name: string): string {
  const value = formOf(html).fields[name];
  if (!value) throw new Error(`no hidden field ${name} in the page`);
  return value;
}

/**
 * The consent form of a consent page approved as a user does it: the hidden fields, the required
 * checkbox ticked, the Approve button.
 */
export const approvalOf = (html: string): Record<string, string> => ({
  request: hiddenField(html, 'request'),
  csrf: hiddenField(html, 'csrf'),
  confirm: 'yes',
  decision: 'approve',
});

/**
 * Through the bridge for the pending request `requestId`: the email form, the code, the verify.
 * `recent` is the browser's recent-accounts cookie (`name=value`) sent with the posts, if any.
 * Returns the platform session cookie (`name=value`), the recent-accounts cookie the verify set,
 * and the verify answer.
 */
export async function signInThroughBridge(app: TestApp, requestId: string, email: string, recent?: string) {
  const headers = recent ? ownPage({ cookie: recent }) : ownPage();
  const started = await postForm(app, '/oauth/login', { request: requestId, email }, headers);
  if (started.status !== 200) throw new Error(`bridge start answered ${started.status}: ${started.text}`);
  const code = await latestCode(email);
  const verified = await postForm(app, '/oauth/login/verify', { request: requestId, email, code }, headers);
  if (verified.status !== 303) throw new Error(`bridge verify answered ${verified.status}: ${verified.text}`);
  const cookie = cookieFrom(verified, `${app.deps.config.SERVICE_NAME}.session_token`);
  if (!cookie) throw new Error('bridge verify set no platform cookie');
  const recentCookie = cookieFrom(verified, recentAccountsCookieName(app.deps.config));
  if (!recentCookie) throw new Error('bridge verify set no recent-accounts cookie');
  return { cookie, recentCookie, verified };
}
