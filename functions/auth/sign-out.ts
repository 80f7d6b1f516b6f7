import { http } from '../../shared/http/handler.ts';
import { routes } from '../../shared/routes.ts';
import { clearedSessionCookie } from '../../shared/sessions/cookies.ts';
import { signOutEverywhere } from '../../shared/sessions/manage.ts';
import { sessionsToEnd } from '../../shared/sessions/resolve.ts';
import { PLATFORM } from '../../shared/store/keys.ts';
import { keyScopeEvenIfRevoked } from '../../shared/tenancy/scope.ts';

// SPEC §3.2 / §4.4: always 200 `{ signedOut: true }`, even without a (valid) session. The user's
// sessions in this application end, and this application's cookie is cleared.
export const handler = http(routes.signOut, undefined, async ({ deps, event }) => {
  const scope = (await keyScopeEvenIfRevoked(deps, event)) ?? PLATFORM;
  const sessions = await sessionsToEnd(deps, event, scope);
  const users = new Map(sessions.map((current) => [current.user.id, current]));
  for (const current of users.values()) await signOutEverywhere(deps, current);
  return { body: { signedOut: true }, cookies: [clearedSessionCookie(deps.config, scope)] };
});
