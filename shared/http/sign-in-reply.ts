import type { Deps } from '../deps.ts';
import { isPlatformOrigin, sessionCookie } from '../sessions/cookies.ts';
import type { SignInResult } from '../sign-in/complete.ts';

/** SignInResult with `set-auth-token` and, for platform origins only, the session cookie (SPEC §4.3). */
export function signInReply(deps: Deps, origin: string | undefined, result: SignInResult) {
  const { user, token, session, scope } = result;
  return {
    body: { user, token, session },
    headers: { 'set-auth-token': token },
    cookies: isPlatformOrigin(deps.config, origin) ? [sessionCookie(deps.config, scope, token)] : [],
  };
}
