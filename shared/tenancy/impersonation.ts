import type { Deps } from '../deps.ts';
import { fail } from '../errors.ts';
import { publicSession } from '../identity/session.ts';
import { type ImpersonationClaims, issueSessionToken } from '../identity/session-token.ts';
import { type User, userFromRecord } from '../identity/user.ts';
import { newId } from '../random.ts';
import { tooBusy } from '../rate-limit/rate-limit.ts';
import type { TransactItem } from '../store/errors.ts';
import {
  endImpersonation as endStored,
  impersonationEndWrites,
  readImpersonation,
  readLiveImpersonations,
  type StoredImpersonation,
  startImpersonation as startStored,
} from '../store/impersonations.ts';
import { deleteSession, type SessionRecord } from '../store/sessions.ts';
import { readUser } from '../store/users.ts';
import { keptUserAgent } from '../user-agent.ts';
import { impersonationEntry } from './audit.ts';
import { mayAct, ROLES, type Role } from './permissions.ts';

/**
 * An impersonation lasts 15 minutes, its session and token alike, and is never extended
 * (docs/api.md, Impersonation).
 */
const IMPERSONATION_SECONDS = 15 * 60;

/**
 * What ended an impersonation, as its `impersonation.ended` entry names it (docs/api.md,
 * Impersonation): its own end route, a sign-out or a revocation of its session, the end user
 * disabled or deleted, the support user removed from the organization, leaving it or demoted below
 * the roles that may impersonate, or the application deleted.
 */
export type EndCause =
  | 'ended'
  | 'signed-out'
  | 'session-revoked'
  | 'user-disabled'
  | 'user-deleted'
  | 'member-removed'
  | 'member-left'
  | 'member-demoted'
  | 'application-deleted';

/** The roles the matrix lets start an impersonation (docs/api.md, Permission matrix). */
const impersonatingRoles = ROLES.filter((role) => mayAct('impersonation.start', role));

/** Whether a member of `role` may start impersonations, so may have some running. */
export const mayImpersonate = (role: Role): boolean => impersonatingRoles.includes(role);

/** The ImpersonationRecord, as the API answers it (docs/api.md, Impersonation). */
function impersonationRecord(stored: StoredImpersonation) {
  return {
    id: stored.id,
    applicationId: stored.applicationId,
    userId: stored.userId,
    actor: { userId: stored.actorId, email: stored.actorEmail },
    reason: stored.reason,
    startedAt: stored.startedAt,
    expiresAt: stored.lapsesAt,
    endedAt: stored.endedAt ?? null,
    sessionId: stored.sessionId,
  };
}

export interface StartInput {
  userId: string;
  reason: string;
  userAgent: string;
  ip: string;
}

/**
 * An owner or admin of the application's organization (the matrix decided) starts acting
 * as one of its end users. One transaction writes the user's 15-minute session, the record and the
 * `impersonation.started` entry; the token carries `act: { sub: <support user> }` (RFC 8693 §4.1).
 */
export async function startImpersonation(
  deps: Deps,
  /** What the matrix granted (shared/tenancy/authorize.ts `ApplicationGrant`), named by its shape. */
  grant: {
    application: { id: string; organizationId: string };
    principal: { kind: 'member'; user: User } | { kind: 'secretKey' | 'publicKey' | 'endUser' };
  },
  input: StartInput,
) {
  const { application, principal } = grant;
  // The matrix lets only owners and admins here, and they are platform members.
  if (principal.kind !== 'member') throw new Error('impersonation.start granted to a non-member');
  const actor = principal.user;
  const profile = await readUser(deps.db, input.userId);
  // A user of another application (or the platform) is not one of this application's users.
  if (!profile || profile.scope !== application.id) throw fail('notFound', 'No such user');
  if (profile.disabledAt !== undefined) throw disabledUser();
  const user = userFromRecord(profile, deps.config.ISSUER);

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
    userAgent: keptUserAgent(input.userAgent),
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
    impersonation: { ...impersonation, organizationId: application.organizationId },
    session,
    audit: impersonationEntry(deps, 'impersonation.started', {
      ...trailFields(impersonation),
      ip: input.ip,
      userAgent: keptUserAgent(input.userAgent),
    }),
    roles: impersonatingRoles,
  });
  if (outcome === 'missing') throw fail('notFound', 'No such user');
  if (outcome === 'disabled') throw disabledUser();
  // Removed or demoted between the authorization and this write: as authorize answers them.
  if (outcome === 'notMember') throw fail('notFound', 'No such application');
  if (outcome === 'notAllowed') throw fail('forbidden', 'A member of the organization may not do this');
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
 * A disabled user has no sessions and gets none (docs/api.md, Impersonation): an impersonation of
 * it would be a session every lookup refuses, and an audit entry for nothing. A known user the
 * caller may not act on: 403.
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
 * POST /impersonation/{id}/end (docs/api.md, Impersonation). Authorized by that impersonation's own
 * token alone: verified locally (signature, issuer, expiry) and matched to the record, not to its
 * session, which the first end deletes; so a second end with the same token finds the record ended
 * and answers it unchanged (idempotent). Any other credential is 403, an unknown id 404; an expired
 * token proves nothing (403), and the impersonation then stays as it lapsed (`endedAt` null).
 */
export async function endImpersonation(deps: Deps, presented: readonly ImpersonationClaims[], id: string) {
  const impersonation = await readImpersonation(deps.db, id);
  if (!impersonation) throw fail('notFound', 'No such impersonation');
  if (!presented.some((token) => issuedBy(impersonation, token))) {
    throw fail('forbidden', "Only the impersonation's own token may end it");
  }
  if (impersonation.endedAt !== undefined) return impersonationRecord(impersonation);
  const endedAt = new Date(deps.clock.now()).toISOString();
  const ended = await endStored(deps.db, {
    impersonation,
    endedAt,
    audit: endedEntry(deps, impersonation, 'ended'),
  });
  if (ended.outcome === 'conflict') throw tooBusy();
  // A concurrent end won: its record, unchanged by this one.
  if (ended.outcome === 'alreadyEnded') return impersonationRecord(ended.record);
  return impersonationRecord({ ...impersonation, endedAt });
}

/**
 * Ends the impersonation a live impersonated session belongs to, when that session is ended by any
 * other path than POST /impersonation/{id}/end (sign-out, revoke-session-by-id, revoke-other-sessions,
 * and the managers' revoke-sessions, disable and delete): the same ONE TransactWriteItems as that end
 * (`endedAt`, the session's Delete, `impersonation.ended`), from what the session record holds, so
 * no read. Ended already (a concurrent end): the session is deleted as that end did.
 */
export async function endImpersonatedSession(
  deps: Deps,
  session: SessionRecord,
  cause: EndCause,
): Promise<void> {
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
    audit: endedEntry(deps, impersonation, cause),
  });
  if (ended.outcome === 'conflict') throw tooBusy();
  if (ended.outcome === 'alreadyEnded') await deleteSession(deps.db, session.userId, session.id);
}

/** The trail's `impersonation.ended` entry, naming what ended it. */
const endedEntry = (deps: Deps, impersonation: StoredImpersonation, cause: EndCause) =>
  impersonationEntry(deps, 'impersonation.ended', { ...trailFields(impersonation), cause });

/**
 * How many impersonations a membership change or an application's deletion ends in its own
 * transaction: 3 items each (the record, the session, the trail entry), so 10 stay far within
 * DynamoDB's 100 items beside the change's own (an application's deletion: up to 62). An
 * impersonation lasts 15 minutes, so more running at once is rare: those are ended right after the
 * change commits (`endRest`), each in its own transaction.
 */
const ENDS_IN_A_CHANGE = 10;

/** Running impersonations a change ends: the writes for its transaction, and the rest to end after it. */
export interface Endings {
  writes: TransactItem[];
  rest: StoredImpersonation[];
  cause: EndCause;
  /** The ids of every impersonation the change ends, in its transaction or after. */
  ids: string[];
}

/**
 * The running impersonations that a change of `organizationId` ends (docs/api.md, Impersonation):
 * those of one support user (`actorId`: removed, leaving or demoted) or of one application
 * (`applicationId`: deleted), read strongly consistent, as writes for the change's transaction.
 * Each write is conditioned on the impersonation not being ended: one ended meanwhile fails the
 * change, which is then read and tried again.
 */
export async function endingsOf(
  deps: Deps,
  organizationId: string,
  of: { actorId: string } | { applicationId: string },
  cause: EndCause,
): Promise<Endings> {
  const now = new Date(deps.clock.now()).toISOString();
  const running = await readLiveImpersonations(deps.db, organizationId, of, now);
  const ending = running.slice(0, ENDS_IN_A_CHANGE);
  return {
    writes: ending.flatMap((impersonation) =>
      impersonationEndWrites(deps.db.table, {
        impersonation,
        endedAt: now,
        audit: endedEntry(deps, impersonation, cause),
      }),
    ),
    rest: running.slice(ENDS_IN_A_CHANGE),
    cause,
    ids: running.map((impersonation) => impersonation.id),
  };
}

/**
 * Ends the impersonations beyond ENDS_IN_A_CHANGE once the change that ends them has committed,
 * one transaction each; one ended meanwhile is left as it was ended.
 */
export async function endRest(deps: Deps, endings: Endings): Promise<void> {
  // The change has committed: it is answered as done whatever happens here. Each end is tried once
  // more after a conflict or an error; one that still fails is logged (its token works until it lapses).
  const endOnce = async (impersonation: StoredImpersonation): Promise<string | null> => {
    try {
      const ended = await endStored(deps.db, {
        impersonation,
        endedAt: new Date(deps.clock.now()).toISOString(),
        audit: endedEntry(deps, impersonation, endings.cause),
      });
      return ended.outcome === 'conflict' ? 'TransactionConflict' : null;
    } catch (error) {
      return `${(error as Error).name}: ${(error as Error).message}`;
    }
  };
  for (const impersonation of endings.rest) {
    if ((await endOnce(impersonation)) === null) continue;
    const failure = await endOnce(impersonation);
    if (failure === null) continue;
    deps.logger.log('error', 'an impersonation the change ends could not be ended', {
      impersonationId: impersonation.id,
      error: failure,
    });
  }
}
