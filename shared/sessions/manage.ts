import type { Deps } from '../deps.ts';
import { fail } from '../errors.ts';
import { countedInAt, publicSession, sessionSummary } from '../identity/session.ts';
import { issueSessionToken } from '../identity/session-token.ts';
import type { SignInResult } from '../sign-in/complete.ts';
import { PLATFORM } from '../store/keys.ts';
import {
  deleteSessions,
  readSession,
  readSessions,
  rotateSessionToken,
  type SessionRecord,
} from '../store/sessions.ts';
import { type EndCause, endImpersonatedSession } from '../tenancy/impersonation.ts';
import { unpaginated } from '../tenancy/pages.ts';
import type { ResolvedSession } from './resolve.ts';

/**
 * POST /auth/refresh (docs/security.md, "Session tokens"): same session id, new token and expiry. The
 * record's jti is swapped conditionally, so the old token stops working at once and two refreshes cannot both
 * win.
 */
export async function refreshSession(deps: Deps, current: ResolvedSession): Promise<SignInResult> {
  const { session, user } = current;
  // An impersonation lasts its 15 minutes and is never extended (docs/api.md, Impersonation).
  if (session.impersonation) throw fail('forbidden', 'An impersonated session cannot be refreshed');
  const issued = await issueSessionToken(deps, {
    userId: user.id,
    email: user.email,
    sessionId: session.id,
    scope: session.scope,
  });
  // Statistics: an application's session is counted again under the minute of this refresh.
  const countedIn = session.scope === PLATFORM ? undefined : countedInAt(issued.issuedAt);
  const rotated = await rotateSessionToken(deps.db, {
    session,
    jti: issued.jti,
    expiresAt: issued.expiresAt,
    ...(countedIn ? { countedIn } : {}),
  });
  if (rotated.outcome === 'stale') throw fail('unauthorized', 'The session token is not valid');
  const refreshed: SessionRecord = {
    ...session,
    jti: issued.jti,
    expiresAt: issued.expiresAt,
    ...(countedIn ? { countedIn } : {}),
  };
  return { user, token: issued.token, session: publicSession(refreshed), scope: session.scope };
}

/** Every session record of a user (a user belongs to one scope), expired ones included. */
function recordsOf(deps: Deps, userId: string): Promise<SessionRecord[]> {
  return readSessions(deps.db, userId);
}

// TTL deletes late: expired records are not sessions any more.
const live = (deps: Deps) => {
  const now = deps.clock.now();
  return (session: SessionRecord) => session.expiresAt * 1000 > now;
};

/** Every live session of a user, newest first. */
async function sessionsOf(deps: Deps, userId: string): Promise<SessionRecord[]> {
  return (await recordsOf(deps, userId))
    .filter(live(deps))
    .sort((a, b) => b.createdAt.localeCompare(a.createdAt) || b.id.localeCompare(a.id));
}

/**
 * Ends the sessions `read` names: a live impersonated one with its impersonation, recorded as ended
 * by `cause` (docs/data-model.md, "Impersonation and audit"); the others deleted, 25 to a
 * BatchWriteItem. The statistics aggregator uncounts each deleted one from the table's stream
 * (docs/data-model.md, Statistics). Answers how many.
 */
async function endCounted(
  deps: Deps,
  userId: string,
  cause: EndCause,
  read: () => Promise<SessionRecord[]>,
): Promise<number> {
  const sessions = await read();
  const isLive = live(deps);
  const impersonated = sessions.filter((session) => session.impersonation && isLive(session));
  for (const session of impersonated) await endImpersonatedSession(deps, session, cause);
  const plain = sessions.filter((session) => !impersonated.includes(session));
  if (plain.length > 0) {
    await deleteSessions(
      deps.db,
      userId,
      plain.map((session) => session.id),
    );
  }
  return sessions.length;
}

/**
 * POST /auth/sign-out: ends every session of the user in this application (docs/security.md,
 * "Session tokens").
 */
async function signOutEverywhere(deps: Deps, current: ResolvedSession): Promise<void> {
  const isLive = live(deps);
  await endCounted(deps, current.user.id, 'signed-out', async () =>
    (await recordsOf(deps, current.user.id)).filter(
      (session) => isLive(session) || session.id === current.session.id,
    ),
  );
}

/** POST /auth/revoke-session-by-id: only the caller's own sessions can be named; others are ignored. */
export async function revokeSession(deps: Deps, current: ResolvedSession, sessionId: string): Promise<void> {
  refuseImpersonation(current, sessionId);
  // An impersonated session ending itself ends its impersonation, as POST /impersonation/{id}/end.
  if (current.session.impersonation) return endImpersonatedSession(deps, current.session, 'session-revoked');
  await endCounted(deps, current.user.id, 'session-revoked', async () => {
    // The calling session was read with the request; another is read in the caller's own partition.
    if (sessionId === current.session.id) return [current.session];
    const session = await readSession(deps.db, current.user.id, sessionId);
    return session ? [session] : [];
  });
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
  return endCounted(deps, current.user.id, 'session-revoked', async () =>
    (await sessionsOf(deps, current.user.id)).filter((session) => session.id !== current.session.id),
  );
}

/**
 * GET /auth/list-sessions: newest first, not paginated, so `total` and `hasMore` are null (docs/api.md,
 * "Management API").
 */
export async function listSessions(deps: Deps, current: ResolvedSession) {
  const items = (await sessionsOf(deps, current.user.id)).map((s) => sessionSummary(s, current.session.id));
  return unpaginated(items);
}

/**
 * POST /auth/sign-out: ends every session of each presented user in the target application, and
 * the impersonation the browser's impersonation cookie carries (docs/api.md, sign-out).
 */
export async function signOut(deps: Deps, presented: readonly ResolvedSession[]): Promise<void> {
  // An impersonation signs out only itself, ending its impersonation: a support user never ends the
  // user's own sessions. The user's own sessions end all of the user's, impersonations included.
  // The same impersonation may come twice (its token by Bearer and by cookie): it ends once.
  const impersonated = new Map(
    presented
      .filter((current) => current.session.impersonation)
      .map((current) => [current.session.id, current.session]),
  );
  for (const session of impersonated.values()) await endImpersonatedSession(deps, session, 'signed-out');
  const own = presented.filter((current) => !current.session.impersonation);
  const users = new Map(own.map((current) => [current.user.id, current]));
  for (const current of users.values()) await signOutEverywhere(deps, current);
}

/**
 * Ends every session of a user, for its application's managers (revoke all, disable, delete):
 * each uncounted from the active sessions as sign-out does, a live impersonation ended by `cause`.
 * Answers how many were alive.
 */
export async function endAllSessions(deps: Deps, userId: string, cause: EndCause): Promise<number> {
  const isLive = live(deps);
  let alive = 0;
  await endCounted(deps, userId, cause, async () => {
    const records = await recordsOf(deps, userId);
    alive = records.filter(isLive).length;
    return records;
  });
  return alive;
}
