import type { SocialProvider } from './types.ts';

/** What `socialSignInUrl` takes (docs/sdk.md, Social sign-in). */
export interface SocialSignInInput {
  /** The application's id (`app_…`), as its configuration shows it. */
  applicationId: string;
  provider: SocialProvider;
  /** One of the return URLs the owner registered, matched exactly; the first registered when left out. */
  returnTo?: string;
  /** The page's own value (at most 512 characters), handed back as `state` on the return URL. */
  state?: string;
}

/**
 * `GET /auth/social/{applicationId}/{provider}` on `base`. The query is percent-encoded
 * (`encodeURIComponent`, never `+` for a space), which every URL parser reads back the same.
 */
export function socialStartUrl(base: string, input: SocialSignInInput): string {
  const path = `/auth/social/${encodeURIComponent(input.applicationId)}/${encodeURIComponent(input.provider)}`;
  const query = [
    ['return_to', input.returnTo],
    ['state', input.state],
  ]
    .filter(([, value]) => value !== undefined)
    .map(([name, value]) => `${name}=${encodeURIComponent(value as string)}`)
    .join('&');
  return base + path + (query ? `?${query}` : '');
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
