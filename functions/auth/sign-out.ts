import { http } from '../../shared/http/handler.ts';
import * as routes from '../../shared/route-table/sessions/sign-out.ts';
import { clearedImpersonationCookie, clearedSessionCookie } from '../../shared/sessions/cookies.ts';
import { signOut } from '../../shared/sessions/manage.ts';

// Always 200 `{ signedOut: true }`, even without a (valid) session (docs/api.md, Endpoints).
export const handler = http(routes.signOut, async ({ deps, caller }) => {
  await signOut(deps, caller.sessions);
  return {
    body: { signedOut: true },
    cookies: [
      ...(caller.clearsCookie ? [clearedSessionCookie(deps.config, caller.scope)] : []),
      ...(caller.clearsImpersonationCookie ? [clearedImpersonationCookie(deps.config)] : []),
    ],
  };
});
