import type { Deps } from '../deps.ts';
import { type AppError, fail, retryLater } from '../errors.ts';
import { countedInAt, publicSession } from '../identity/session.ts';
import { issueSessionToken } from '../identity/session-token.ts';
import { type User, userFromRecord } from '../identity/user.ts';
import { newId } from '../random.ts';
import { tooBusy } from '../rate-limit/rate-limit.ts';
import type { AccountRecord, NewAccount } from '../store/accounts.ts';
import type { TransactItem } from '../store/errors.ts';
import { PLATFORM } from '../store/keys.ts';
import type { SessionRecord } from '../store/sessions.ts';
import { consumeRequest } from '../store/sign-in-transaction.ts';
import { keptUserAgent } from '../user-agent.ts';
import { accountDisabled } from './check-code.ts';

/** Whose sign-in it is: the normalised address in its scope, and the name a new account gets. */
export interface SignInSubject {
  scope: string;
  email: string;
  name?: string | undefined;
}

export interface CompleteInput {
  subject: SignInSubject;
  /**
   * The conditional write that uses up the proof of the address, at `now` (shared/store/sign-in-transaction.ts):
   * the sign-in request (verify, poll) or a social exchange code.
   */
  spend: (now: number) => TransactItem;
  /** The account item of the address in this scope (its image as a URL), or undefined: this sign-in creates the account. */
  account: AccountRecord | undefined;
  /**
   * The application of the sign-in was there when the sign-in read it (always, on the platform).
   * A session of an application deleted after that read is refused on every use: each session
   * lookup reads the application (shared/sessions/resolve.ts).
   */
  scopeExists: boolean;
  /** Poll: the hash of the device code, whose grant is used up in the same transaction. */
  deviceCodeHash?: string;
  /** What the caller answers when another attempt used up the proof first. */
  raced: () => AppError;
  userAgent: string;
  sourceIp: string;
  /** Milliseconds before the function times out (Lambda's context, or the local server's deadline). */
  remainingMs: () => number;
}

/**
 * The time the commit and the answer may need at most: the transaction with its conflict retries
 * (under 0.5 s, shared/store/conflict-retry.ts), the SDK's own retries, and serializing the answer.
 */
const COMMIT_MARGIN_MS = 2_000;

/** SignInResult (docs/api.md, Endpoints) plus what the HTTP layer needs for headers. */
export interface SignInResult {
  user: User;
  token: string;
  session: ReturnType<typeof publicSession>;
  scope: string;
}

/**
 * The session of a proven address (pending|approved -> consumed, docs/data-model.md, Items; or a social
 * exchange code, docs/api.md, "Social sign-in"), in ONE TransactWriteItems: the proof is used up only while
 * its condition holds, so of any number of concurrent attempts exactly one gets a session. The first sign-in
 * of an address also creates its account (unique per scope by a conditional put), user and own organization.
 */
export async function completeSignIn(deps: Deps, input: CompleteInput): Promise<SignInResult> {
  const { subject: request } = input;
  // A request of a deleted application is as unusable as one another request consumed.
  if (!input.scopeExists) throw input.raced();
  const now = deps.clock.now();
  const createdAt = new Date(now).toISOString();
  const user: User = input.account
    ? userFromRecord(input.account, deps.config.ISSUER)
    : newUser(deps, request, createdAt);
  const sessionId = newId(deps.random, 'ses');
  const issued = await issueSessionToken(deps, {
    userId: user.id,
    email: user.email,
    sessionId,
    scope: request.scope,
  });
  const session: SessionRecord = {
    id: sessionId,
    userId: user.id,
    scope: request.scope,
    jti: issued.jti,
    createdAt,
    expiresAt: issued.expiresAt,
    userAgent: keptUserAgent(input.userAgent),
    ip: input.sourceIp,
    // Statistics are per application: platform sign-ins and sessions are not counted.
    ...(request.scope === PLATFORM ? {} : { countedIn: countedInAt(issued.issuedAt) }),
  };

  // A function that times out after the commit leaves the code used and its client without
  // the session. With too little time left, nothing is written, so the same code works on a retry.
  if (input.remainingMs() < COMMIT_MARGIN_MS) {
    throw retryLater('outOfTime', (s) => `The service is busy; retry in ${s} s`, 1);
  }
  const consumed = await consumeRequest(deps.db, {
    spend: input.spend(now),
    scope: request.scope,
    session,
    ...(input.account ? { existingUserId: user.id } : { newAccount: newAccount(deps, user, request.scope) }),
    ...(input.deviceCodeHash ? { deviceCodeHash: input.deviceCodeHash } : {}),
  });
  if (consumed.outcome === 'raced') throw input.raced();
  // Disabled between the read and the commit; nothing written, the code still works once enabled
  // (docs/api.md, Users).
  if (consumed.outcome === 'disabled') throw accountDisabled();
  // Concurrent writes to its items kept cancelling it: nothing was written, the code still works.
  if (consumed.outcome === 'conflict') throw tooBusy();
  // The account appeared since we read it: only another path creating accounts can do that.
  if (consumed.outcome === 'accountExists') {
    throw fail('accountChanged', 'The account changed during sign-in; try again');
  }
  deps.metrics.count('SignInsCompleted');
  return { user, token: issued.token, session: publicSession(session), scope: request.scope };
}

/** The user a first sign-in of `subject` creates: email-verified, without an image. */
export const newUser = (deps: Deps, subject: SignInSubject, createdAt: string): User => ({
  id: newId(deps.random, 'usr'),
  email: subject.email,
  name: subject.name ?? null,
  image: null,
  emailVerified: true,
  createdAt,
});

/**
 * A first sign-in creates the account, email-verified, with an organization it owns (docs/api.md,
 * "Management API").
 */
export function newAccount(deps: Deps, user: User, scope: string): NewAccount {
  return {
    scope,
    user,
    organization: {
      id: newId(deps.random, 'org'),
      name: `${user.name ?? user.email.split('@')[0]}'s organization`,
      // A platform organization, or a tenant organization of the application (docs/data-model.md, Items).
      kind: scope === PLATFORM ? 'platform' : 'tenant',
      ...(scope === PLATFORM ? {} : { applicationId: scope }),
    },
  };
}
