import type { BrowserGlobals } from './browser.ts';
import { DoorcodeError } from './errors.ts';
import type { SocialProvider } from './types.ts';

/** What `startSocialSignIn` takes (docs/sdk.md, Social sign-in). */
export interface SocialSignInInput {
  /** The application's id (`app_…`), as its configuration shows it. */
  applicationId: string;
  provider: SocialProvider;
  /** One of the return URLs the owner registered, matched exactly; the first registered when left out. */
  returnTo?: string;
  /** The page's own value (at most 512 characters), handed back as `state` on the return URL; random when left out. */
  state?: string;
}

/** The `sessionStorage` key of this tab's social sign-in in progress: `{ verifier, state }`. */
export const SOCIAL_KEY = 'auth:social';

/** A social sign-in this tab started: its PKCE verifier (RFC 7636) and the `state` it expects back. */
export interface PendingSocial {
  verifier: string;
  state: string;
}

const base64url = (bytes: Uint8Array): string =>
  btoa(String.fromCharCode(...bytes))
    .replace(/\+/g, '-')
    .replace(/\//g, '_')
    .replace(/=+$/, '');

/**
 * A new pending sign-in and its S256 challenge. RFC 7636 §7.1: 32 random bytes make the
 * 43-character verifier.
 */
export async function newPendingSocial(
  crypto: BrowserGlobals['crypto'],
  state?: string,
): Promise<{ pending: PendingSocial; challenge: string }> {
  if (!crypto.subtle)
    throw new DoorcodeError(
      0,
      'INSECURE_CONTEXT',
      'Social sign-in needs a secure page (https or localhost): crypto.subtle is missing',
    );
  const verifier = base64url(crypto.getRandomValues(new Uint8Array(32)));
  const digest = await crypto.subtle.digest('SHA-256', new TextEncoder().encode(verifier));
  return {
    pending: { verifier, state: state ?? base64url(crypto.getRandomValues(new Uint8Array(16))) },
    challenge: base64url(new Uint8Array(digest)),
  };
}

/** Reads and removes this tab's pending sign-in (single use), or null when there is none. */
export function takePendingSocial(storage: BrowserGlobals['sessionStorage']): PendingSocial | null {
  const text = storage.getItem(SOCIAL_KEY);
  storage.removeItem(SOCIAL_KEY);
  if (!text) return null;
  try {
    const value = JSON.parse(text) as Partial<PendingSocial>;
    return typeof value.verifier === 'string' && typeof value.state === 'string'
      ? { verifier: value.verifier, state: value.state }
      : null;
  } catch {
    return null;
  }
}

/**
 * `GET /auth/social/{applicationId}/{provider}` on `base`, with the page's S256 `code_challenge`. The
 * query is percent-encoded (`encodeURIComponent`, never `+` for a space), which every URL parser
 * reads back the same.
 */
export function socialStartUrl(
  base: string,
  input: SocialSignInInput & { state: string },
  challenge: string,
): string {
  const path = `/auth/social/${encodeURIComponent(input.applicationId)}/${encodeURIComponent(input.provider)}`;
  const query = [
    ['return_to', input.returnTo],
    ['state', input.state],
    ['code_challenge', challenge],
    ['code_challenge_method', 'S256'],
  ]
    .filter(([, value]) => value !== undefined)
    .map(([name, value]) => `${name}=${encodeURIComponent(value as string)}`)
    .join('&');
  return `${base}${path}?${query}`;
}

/** A return URL a social sign-in landed on: its one-time `code`, its `state`, and the URL without them. */
export interface Landing {
  code: string;
  state: string | null;
  /** The same URL with `code` and `state` taken out (the rest of the query and the hash kept). */
  clean: string;
}

/** The landing `href` (relative to `base`, if it is relative) is, or null when it carries no `code`. */
export function landingOf(href: string, base?: string): Landing | null {
  const url = new URL(href, base);
  const code = url.searchParams.get('code');
  if (!code) return null;
  const state = url.searchParams.get('state');
  url.searchParams.delete('code');
  url.searchParams.delete('state');
  return { code, state, clean: url.href };
}
