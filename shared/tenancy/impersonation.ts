import type { Deps } from '../deps.ts';
import { fail } from '../errors.ts';
import { newId } from '../random.ts';
import { tooBusy } from '../rate-limit/rate-limit.ts';
import { publicSession, type SessionRecord } from '../sessions/session.ts';
import { type ImpersonationClaims, issueSessionToken } from '../sessions/token.ts';
import {
  endImpersonation as endStored,
  readImpersonation,
  readUserProfile,
  type StoredImpersonation,
  startImpersonation as startStored,
} from '../store/impersonations.ts';
import { deleteSession } from '../store/sessions.ts';
import { userFromItem } from '../users/user.ts';
import { auditEntry } from './audit.ts';
import type { ApplicationGrant } from './authorize.ts';

/** SPEC §8: an impersonation lasts 15 minutes, its session and token alike, and is never extended. */
const IMPERSONATION_SECONDS = 15 * 60;

/** SPEC §2 ImpersonationRecord, as the API answers it. */
function impersonationRecord(item: Record<string, unknown>) {
  return {
    id: item.id as string,
    applicationId: item.applicationId as string,
    userId: item.userId as string,
    actor: { userId: item.actorId as string, email: item.actorEmail as string },
    reason: item.reason as string,
    startedAt: item.startedAt as string,
    expiresAt: item.lapsesAt as string,
    endedAt: (item.endedAt as string | undefined) ?? null,
    sessionId: item.sessionId as string,
  };
}

export interface StartInput {
  userId: string;
  reason: string;
  userAgent: string;
  ip: string;
}

/**
 * SPEC §1.10: an owner or admin of the application's organization (the matrix decided) starts acting
 * as one of its end users. One transaction writes the user's 15-minute session, the record and the
 * `impersonation.started` entry; the token carries `act: { sub: <support user> }` (DESIGN §5).
 */
export async function startImpersonation(deps: Deps, grant: ApplicationGrant, input: StartInput) {
  const { application, principal } = grant;
  // The matrix lets only owners and admins here, and they are platform members.
  if (principal.kind !== 'member') throw new Error('impersonation.start granted to a non-member');
  const actor = principal.user;
  const profile = await readUserProfile(deps.db, input.userId);
  // A user of another application (or the platform) is not one of this application's users.
  if (!profile || profile.scope !== application.id) throw fail('notFound', 'No such user');
  if (profile.disabledAt !== undefined) throw disabledUser();
  const user = userFromItem(profile, deps.config.ISSUER);

  const now = deps.clock.now();
  const startedAt = new Date(now).toISOString();
  const sessionId = newId(deps.random, 'ses');
  const issued = await issueSessionToken(deps, {
    userId: user.id,
    email: user.email,
    sessionId,
    scope: application.id,
    lifetime: IMPERSONATION_SECONDS,
    actorId: actor.id,
  });
  const impersonation: StoredImpersonation = {
    id: newId(deps.random, 'imp'),
    applicationId: application.id,
    userId: user.id,
    actorId: actor.id,
    actorEmail: actor.email,
    reason: input.reason,
    startedAt,
    lapsesAt: new Date(issued.expiresAt * 1000).toISOString(),
    sessionId,
    jti: issued.jti,
  };
  const session: SessionRecord = {
    id: sessionId,
    userId: user.id,
    scope: application.id,
    jti: issued.jti,
    createdAt: startedAt,
    expiresAt: issued.expiresAt,
    userAgent: input.userAgent.slice(0, 512),
    ip: input.ip,
    impersonation: {
      id: impersonation.id,
      actorId: actor.id,
      actorEmail: actor.email,
      reason: input.reason,
      startedAt,
    },
  };
  const outcome = await startStored(deps.db, {
    impersonation,
    session,
    audit: auditEntry(deps, 'impersonation.started', trailFields(impersonation)),
  });
  if (outcome === 'missing') throw fail('notFound', 'No such user');
  if (outcome === 'disabled') throw disabledUser();
  if (outcome === 'conflict') throw tooBusy();
  return {
    impersonation: impersonationRecord({ ...impersonation }),
    user,
    token: issued.token,
    session: publicSession(session),
    maxAge: IMPERSONATION_SECONDS,
  };
}

/**
 * A disabled user has no sessions and gets none (issue 8): an impersonation of it would be a session
 * every lookup refuses, and an audit entry for nothing. A known user the caller may not act on: 403.
 */
const disabledUser = () => fail('forbidden', 'The user is disabled');

const trailFields = (impersonation: StoredImpersonation) => ({
  applicationId: impersonation.applicationId,
  actorId: impersonation.actorId,
  actorEmail: impersonation.actorEmail,
  userId: impersonation.userId,
  impersonationId: impersonation.id,
  reason: impersonation.reason,
});

/** Whether `token` is the one token `impersonation` issued (its session id, token id, user, actor). */
const issuedBy = (impersonation: StoredImpersonation, token: ImpersonationClaims): boolean =>
  token.sid === impersonation.sessionId &&
  token.jti === impersonation.jti &&
  token.sub === impersonation.userId &&
  token.aud === impersonation.applicationId &&
  token.act.sub === impersonation.actorId;

/**
 * POST /impersonation/{id}/end (SPEC §3.3, §4.4). Authorized by that impersonation's own token
 * alone: verified locally (signature, issuer, expiry) and matched to the record, not to its session,
 * which the first end deletes; so a second end with the same token finds the record ended and
 * answers it unchanged (idempotent). Any other credential is 403, an unknown id 404; an expired
 * token proves nothing (403), and the impersonation then stays as it lapsed (`endedAt` null).
 */
export async function endImpersonation(deps: Deps, presented: readonly ImpersonationClaims[], id: string) {
  const item = await readImpersonation(deps.db, id);
  if (!item) throw fail('notFound', 'No such impersonation');
  const impersonation = item as unknown as StoredImpersonation;
  if (!presented.some((token) => issuedBy(impersonation, token))) {
    throw fail('forbidden', "Only the impersonation's own token may end it");
  }
  if (item.endedAt !== undefined) return impersonationRecord(item);
  const endedAt = new Date(deps.clock.now()).toISOString();
  const ended = await endStored(deps.db, {
    impersonation,
    endedAt,
    audit: auditEntry(deps, 'impersonation.ended', trailFields(impersonation)),
  });
  if (ended.outcome === 'conflict') throw tooBusy();
  // A concurrent end won: its record, unchanged by this one.
  if (ended.outcome === 'alreadyEnded') return impersonationRecord(ended.item);
  return impersonationRecord({ ...item, endedAt });
}

/**
 * Ends the impersonation a live impersonated session belongs to, when that session is ended by any
 * other path than POST /impersonation/{id}/end (sign-out, revoke-session-by-id, revoke-other-sessions,
 * and the managers' revoke-sessions, disable and delete): the same ONE TransactWriteItems as that end
 * (`endedAt`, the session's Delete, `impersonation.ended`), from what the session record holds, so
 * no read. Ended already (a concurrent end): the session is deleted as that end did.
 */
export async function endImpersonatedSession(deps: Deps, session: SessionRecord): Promise<void> {
  const started = session.impersonation;
  if (!started) throw new Error(`session ${session.id} is not impersonated`);
  const impersonation: StoredImpersonation = {
    id: started.id,
    applicationId: session.scope,
    userId: session.userId,
    actorId: started.actorId,
    actorEmail: started.actorEmail,
    reason: started.reason,
    startedAt: started.startedAt,
    lapsesAt: new Date(session.expiresAt * 1000).toISOString(),
    sessionId: session.id,
    jti: session.jti,
  };
  const ended = await endStored(deps.db, {
    impersonation,
    endedAt: new Date(deps.clock.now()).toISOString(),
    audit: auditEntry(deps, 'impersonation.ended', trailFields(impersonation)),
  });
  if (ended.outcome === 'conflict') throw tooBusy();
  if (ended.outcome === 'alreadyEnded') await deleteSession(deps.db, session.userId, session.id);
}
