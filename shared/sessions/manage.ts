import type { Deps } from '../deps.ts';
import { fail } from '../errors.ts';
import type { SignInResult } from '../sign-in/complete.ts';
import { deleteSession, deleteSessions, readSessions, rotateSessionToken } from '../store/sessions.ts';
import { unpaginated } from '../tenancy/pages.ts';
import type { ResolvedSession } from './resolve.ts';
import { publicSession, type SessionRecord, sessionFromItem, sessionSummary } from './session.ts';
import { issueSessionToken } from './token.ts';

/**
 * POST /auth/refresh (SPEC §3.2): same session id, new token and expiry. The record's jti is
 * swapped conditionally, so the old token stops working at once and two refreshes cannot both win.
 */
export async function refreshSession(deps: Deps, current: ResolvedSession): Promise<SignInResult> {
  const { session, user } = current;
  // DESIGN §5: an impersonation lasts its 15 minutes and is never extended.
  if (session.impersonation) throw fail('forbidden', 'An impersonated session cannot be refreshed');
  const issued = await issueSessionToken(deps, {
    userId: user.id,
    email: user.email,
    sessionId: session.id,
    scope: session.scope,
  });
  const rotated = await rotateSessionToken(deps.db, {
    session,
    jti: issued.jti,
    expiresAt: issued.expiresAt,
  });
  if (rotated.outcome === 'stale') throw fail('unauthorized', 'The session token is not valid');
  const refreshed: SessionRecord = { ...session, jti: issued.jti, expiresAt: issued.expiresAt };
  return { user, token: issued.token, session: publicSession(refreshed), scope: session.scope };
}

/** Every live session of a user (a user belongs to one scope), newest first. */
async function sessionsOf(deps: Deps, userId: string): Promise<SessionRecord[]> {
  const sessions = (await readSessions(deps.db, userId)).map(sessionFromItem);
  const now = deps.clock.now();
  // TTL deletes late: expired records are not sessions any more.
  return sessions
    .filter((session) => session.expiresAt * 1000 > now)
    .sort((a, b) => b.createdAt.localeCompare(a.createdAt) || b.id.localeCompare(a.id));
}

/** POST /auth/sign-out: ends every session of the user in this application (SPEC §3.2). */
async function signOutEverywhere(deps: Deps, current: ResolvedSession): Promise<void> {
  // An impersonation signs out only itself: a support user never ends the user's own sessions.
  if (current.session.impersonation) return deleteSession(deps.db, current.user.id, current.session.id);
  const ids = new Set((await sessionsOf(deps, current.user.id)).map((session) => session.id));
  ids.add(current.session.id);
  await deleteSessions(deps.db, current.user.id, [...ids]);
}

/** POST /auth/revoke-session-by-id: only the caller's own sessions can be named; others are ignored. */
export async function revokeSession(deps: Deps, current: ResolvedSession, sessionId: string): Promise<void> {
  refuseImpersonation(current, sessionId);
  await deleteSession(deps.db, current.user.id, sessionId);
}

/**
 * A support user acting as the user may end its own impersonated session, never the user's own
 * sessions: that would be acting against the user rather than seeing what the user sees.
 */
function refuseImpersonation(current: ResolvedSession, sessionId?: string): void {
  if (current.session.impersonation && sessionId !== current.session.id) {
    throw fail('forbidden', "An impersonated session cannot end the user's other sessions");
  }
}

/** POST /auth/revoke-other-sessions: the calling session stays. */
export async function revokeOtherSessions(deps: Deps, current: ResolvedSession): Promise<number> {
  refuseImpersonation(current);
  const others = (await sessionsOf(deps, current.user.id)).filter(
    (session) => session.id !== current.session.id,
  );
  await deleteSessions(
    deps.db,
    current.user.id,
    others.map((session) => session.id),
  );
  return others.length;
}

/** GET /auth/list-sessions: newest first, not paginated, so `total` and `hasMore` are null (SPEC §2 Page). */
export async function listSessions(deps: Deps, current: ResolvedSession) {
  const items = (await sessionsOf(deps, current.user.id)).map((s) => sessionSummary(s, current.session.id));
  return unpaginated(items);
}

/** POST /auth/sign-out: ends every session of each presented user in the target application (SPEC §3.2). */
export async function signOut(deps: Deps, presented: readonly ResolvedSession[]): Promise<void> {
  const users = new Map(presented.map((current) => [current.user.id, current]));
  for (const current of users.values()) await signOutEverywhere(deps, current);
}
