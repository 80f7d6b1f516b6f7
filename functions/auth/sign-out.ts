import { AppError } from '../../shared/errors.ts';
import { http } from '../../shared/http/handler.ts';
import { routes } from '../../shared/routes.ts';
import { clearedSessionCookie } from '../../shared/sessions/cookies.ts';
import { signOutEverywhere } from '../../shared/sessions/manage.ts';
import { type Caller, resolveCaller } from '../../shared/sessions/resolve.ts';
import { PLATFORM } from '../../shared/store/keys.ts';

// SPEC §4.4: always 200 `{ signedOut: true }`, even without a (valid) session.
export const handler = http(routes.signOut, undefined, async ({ deps, event }) => {
  let caller: Caller | null = null;
  try {
    caller = await resolveCaller(deps, event);
  } catch (error) {
    if (!(error instanceof AppError) || error.status !== 401) throw error;
  }
  if (caller?.session) await signOutEverywhere(deps, caller.session);
  const scope = caller?.session?.session.scope ?? caller?.key?.applicationId ?? PLATFORM;
  return { body: { signedOut: true }, cookies: [clearedSessionCookie(deps.config, scope)] };
});
