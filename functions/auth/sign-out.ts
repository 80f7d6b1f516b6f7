import { http } from '../../shared/http/handler.ts';
import { routes } from '../../shared/routes.ts';
import { clearedSessionCookie, scopeOfCookie, sessionCookieNames } from '../../shared/sessions/cookies.ts';
import { signOutEverywhere } from '../../shared/sessions/manage.ts';
import { presentedSessions } from '../../shared/sessions/resolve.ts';
import { PLATFORM } from '../../shared/store/keys.ts';
import { knownKeyScope } from '../../shared/tenancy/scope.ts';

// SPEC §4.4: always 200 `{ signedOut: true }`, even without a (valid) session. Every session the
// request holds a token of is ended, and every session cookie it sent (plus the key's) is cleared.
export const handler = http(routes.signOut, undefined, async ({ deps, event }) => {
  const sessions = await presentedSessions(deps, event);
  const users = new Map(sessions.map((current) => [current.user.id, current]));
  for (const current of users.values()) await signOutEverywhere(deps, current);
  const scopes = new Set([
    ...sessionCookieNames(deps.config, event.cookies).map((name) => scopeOfCookie(deps.config, name)),
    ...sessions.map((current) => current.session.scope),
  ]);
  if (scopes.size === 0) scopes.add((await knownKeyScope(deps, event)) ?? PLATFORM);
  return {
    body: { signedOut: true },
    cookies: [...scopes].map((scope) => clearedSessionCookie(deps.config, scope)),
  };
});
