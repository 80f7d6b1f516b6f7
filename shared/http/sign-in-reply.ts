import type { Deps } from '../deps.ts';
import { isPlatformOrigin, sessionCookie } from '../sessions/cookies.ts';
import type { SignInResult } from '../sign-in/complete.ts';

/**
 * SignInResult with `set-auth-token` and the session cookie (docs/api.md, Endpoints) for platform
 * origins, and for a refresh that came by cookie (the chain admitted it: docs/api.md, Requests
 * authenticated by the session cookie): its browser must get the new token, or it is left holding a
 * cookie that no longer works.
 */
export function signInReply(
  deps: Deps,
  origin: string | undefined,
  result: SignInResult,
  { cameByCookie = false } = {},
) {
  const { user, token, session, scope } = result;
  const setsCookie = cameByCookie || isPlatformOrigin(deps.config, origin);
  return {
    body: { user, token, session },
    headers: { 'set-auth-token': token },
    cookies: setsCookie ? [sessionCookie(deps.config, scope, token)] : [],
  };
}
