import { publicSession } from '../identity/session.ts';
import { publicApplication } from '../tenancy/applications.ts';
import type { CallerByMode } from './caller.ts';

/**
 * GET /auth/session (SessionInfo, docs/api.md, Endpoints): `{}` anonymous, `{ application }` for a key alone,
 * else the user, session and application, with the token only when the client cannot hold it or the session
 * is impersonated (docs/api.md, Impersonation), and then `impersonation`: who acts, why, until when.
 */
export function sessionInfo(caller: CallerByMode['session-optional']) {
  if (caller.kind === 'anonymous') return {};
  if (caller.kind === 'apiKey') return { application: publicApplication(caller.application) };
  const { user, session, token } = caller.session;
  const impersonation = session.impersonation;
  return {
    user,
    session: publicSession(session),
    application: caller.application ? publicApplication(caller.application) : null,
    ...(caller.tokenHeld && !impersonation ? {} : { token }),
    ...(impersonation
      ? {
          impersonation: {
            id: impersonation.id,
            actor: { userId: impersonation.actorId, email: impersonation.actorEmail },
            reason: impersonation.reason,
            startedAt: impersonation.startedAt,
            expiresAt: new Date(session.expiresAt * 1000).toISOString(),
          },
        }
      : {}),
  };
}
