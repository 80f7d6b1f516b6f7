import type { Deps } from '../deps.ts';
import { clearedImpersonationCookie, impersonationCookie, isPlatformOrigin } from '../sessions/cookies.ts';
import type { startImpersonation } from '../tenancy/impersonation.ts';

type Started = Awaited<ReturnType<typeof startImpersonation>>;

/**
 * 201 with the record and the end user's session: the token in the body and `set-auth-token`, and
 * for a platform origin (the support user's dashboard) the impersonation cookie, which lapses with
 * the impersonation (docs/api.md, Impersonation).
 */
export function impersonationStartedReply(deps: Deps, origin: string | undefined, started: Started) {
  const { impersonation, user, token, session, maxAge } = started;
  return {
    status: 201 as const,
    body: { impersonation, user, token, session },
    headers: { 'set-auth-token': token },
    cookies: isPlatformOrigin(deps.config, origin) ? [impersonationCookie(deps.config, token, maxAge)] : [],
  };
}

/** Ending clears the impersonation cookie, where one came or the dashboard asks (docs/api.md, Impersonation). */
export const impersonationCookieCleared = (
  deps: Deps,
  origin: string | undefined,
  cookieCame: boolean,
): string[] =>
  cookieCame || isPlatformOrigin(deps.config, origin) ? [clearedImpersonationCookie(deps.config)] : [];
