import type { Config } from '../config.ts';
import { SESSION_TTL_SECONDS } from '../identity/session-token.ts';
import { PLATFORM } from '../store/keys.ts';

/**
 * `<service>.session_token` on the platform, `<service>.session_token.<applicationId>` in an app
 * (docs/security.md, "Session tokens").
 */
export const sessionCookieName = (config: Config, scope: string): string =>
  scope === PLATFORM
    ? `${config.SERVICE_NAME}.session_token`
    : `${config.SERVICE_NAME}.session_token.${scope}`;

/**
 * Every cookie the service sets: `name=value` for `maxAgeSeconds` (0 clears it), HttpOnly, Secure,
 * SameSite=Lax, on the whole host.
 */
export const setCookie = (name: string, value: string, maxAgeSeconds: number): string =>
  `${name}=${value}; Max-Age=${maxAgeSeconds}; HttpOnly; Secure; SameSite=Lax; Path=/`;

/**
 * RFC 6265bis §4.1.3.2: a `__Host-` cookie of the service, which the browser refuses unless it is
 * Secure, Path=/ and has no Domain, so a sibling subdomain cannot plant or shadow it. Local mode
 * serves http on loopback, which browsers treat as a secure context, so the prefix holds there.
 */
export const hostCookieName = (config: Config, name: string): string =>
  `__Host-${config.SERVICE_NAME}.${name}`;

export const sessionCookie = (config: Config, scope: string, token: string): string =>
  setCookie(sessionCookieName(config, scope), token, SESSION_TTL_SECONDS);

export const clearedSessionCookie = (config: Config, scope: string): string =>
  setCookie(sessionCookieName(config, scope), '', 0);

/**
 * The impersonation cookie (docs/api.md, Impersonation), one for the whole service (an impersonation's
 * session is of its application, but the support user's browser is on the platform); read before anything
 * else.
 */
export const impersonationCookieName = (config: Config): string =>
  `${config.SERVICE_NAME}.impersonation_token`;

export const impersonationCookie = (config: Config, token: string, maxAgeSeconds: number): string =>
  setCookie(impersonationCookieName(config), token, maxAgeSeconds);

export const clearedImpersonationCookie = (config: Config): string =>
  setCookie(impersonationCookieName(config), '', 0);

/**
 * The cookie is issued only to browsers on a platform origin (docs/api.md,
 * "Requests authenticated by the session cookie"): a configured one, or the service's own (the origin of
 * ISSUER), whose OAuth sign-in bridge and consent page (docs/oauth.md, "Sign-in bridge", "Consent") are pages
 * of the service itself: they sign the user in and post the consent from that origin.
 */
export const isPlatformOrigin = (config: Config, origin: string | undefined): boolean =>
  origin !== undefined && (config.PLATFORM_ORIGINS.includes(origin) || origin === serviceOrigin(config));

/** The origin of the service's own pages: ISSUER's. */
const serviceOrigin = (config: Config): string => new URL(config.ISSUER).origin;

/**
 * Whether a form POST comes from the service's own page (the OAuth sign-in bridge and consent, docs/api.md
 * "OAuth authorization"): `Origin` is exactly ISSUER's origin, or absent or opaque with `Sec-Fetch-Site:
 * same-origin`. Stricter than `mayChangeStateByCookie`: no other platform origin, and not `none` (a typed or
 * bookmarked POST is no page of ours).
 */
export const postedByServicePage = (
  config: Config,
  request: { origin: string | undefined; fetchSite: string | undefined },
): boolean =>
  namesNoOrigin(request.origin)
    ? request.fetchSite === 'same-origin'
    : request.origin === serviceOrigin(config);

/** Fetch Metadata values of a request no other site made: the service's own page, or the user's own action. */
const OWN_FETCH_SITES = new Set(['same-origin', 'none']);

/**
 * Whether a cookie may authenticate a request that changes state (docs/security.md,
 * "Requests authenticated by the session cookie"). A browser attaches the cookie on its own, also to simple
 * cross-site POSTs that need no preflight, and a sibling subdomain is "same-site" for `SameSite=Lax`: so only
 * a platform origin, or a request with no (or an opaque) `Origin` whose `Sec-Fetch-Site` says no other site
 * made it, may change state by cookie.
 */
export const mayChangeStateByCookie = (
  config: Config,
  request: { origin: string | undefined; fetchSite: string | undefined },
): boolean =>
  namesNoOrigin(request.origin)
    ? request.fetchSite !== undefined && OWN_FETCH_SITES.has(request.fetchSite)
    : isPlatformOrigin(config, request.origin);

/**
 * An absent `Origin`, or the opaque `null` (RFC 6454 §7.3): a browser sends `null` on a form POST
 * from a page whose `Referrer-Policy` is `no-referrer` (the service's own OAuth pages), as it does
 * from a sandboxed frame. Neither names a site, so `Sec-Fetch-Site` decides, and a sandboxed frame
 * of another site is `cross-site` there.
 */
const namesNoOrigin = (origin: string | undefined): origin is undefined | 'null' =>
  origin === undefined || origin === 'null';

/**
 * How many values of one session cookie name are looked up at most (docs/security.md, "Session tokens"): the
 * current cookie and one stale copy that another path or a parent domain set. More is no browser's normal
 * state, and each value would cost a table read, so a request with more is refused (sign-out reads this
 * many).
 */
export const MAX_SAME_NAME_COOKIES = 2;

/** The name of one `name=value` of API Gateway's `cookies` array; none for a value without a name. */
const nameOf = (cookie: string): string | undefined => {
  const separator = cookie.indexOf('=');
  return separator > 0 ? cookie.slice(0, separator).trim() : undefined;
};

/** `cookies` without any under `name`. */
export const withoutCookie = (cookies: readonly string[] | undefined, name: string): string[] =>
  (cookies ?? []).filter((cookie) => nameOf(cookie) !== name);

/**
 * Every value of the cookie `name` in API Gateway's `cookies` array. A browser can send the same
 * name twice (another subdomain or path set it too), so callers look at each rather than the first.
 */
export function readCookies(cookies: readonly string[] | undefined, name: string): string[] {
  const values: string[] = [];
  for (const cookie of cookies ?? []) {
    if (nameOf(cookie) === name) values.push(cookie.slice(cookie.indexOf('=') + 1).trim());
  }
  return values;
}
