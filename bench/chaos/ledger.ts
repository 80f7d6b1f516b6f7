/**
 * What the chaos clients believe happened, from the answers they were told: the side of the
 * invariants that is not in the table (bench/chaos/invariants.ts replays it against a Scan).
 * "Ambiguous" is an answer that promises nothing either way (500, a network error, or a retry
 * given up on): the write may or may not be there, but at most once.
 */

/** The claims of a token (its payload, unverified: the client only reads them). */
// biome-ignore lint/suspicious/noExplicitAny: claims of session and access tokens alike.
export function claimsOf(token: string): Record<string, any> {
  const [, payload = ''] = token.split('.');
  return JSON.parse(Buffer.from(payload, 'base64url').toString('utf8'));
}

export interface SessionBelief {
  id: string;
  userId: string;
  scope: string;
  /** The jti of the last token a success answered for it. */
  jti: string;
  /** Live as told; ended as told (sign-out, revoke, disable, delete); unknown after an ambiguous answer. */
  state: 'live' | 'ended' | 'unknown';
  /** A refresh after the last told jti answered ambiguously: the stored jti may be another. */
  jtiUncertain: boolean;
  requestIds: string[];
}

export interface UserBelief {
  id: string;
  scope: string;
  email: string;
  state: 'exists' | 'deleted' | 'unknown';
  disabled: boolean | 'unknown';
  /** The name the last success answered, and every name an ambiguous answer may have stored since. */
  name: string | null;
  names: Set<string | null>;
  requestIds: string[];
}

export interface ApplicationBelief {
  id: string;
  organizationId: string;
  state: 'exists' | 'deleted' | 'unknown';
  name: string;
  names: Set<string>;
}

export interface KeyBelief {
  id: string;
  applicationId: string;
  state: 'active' | 'revoked' | 'unknown';
}

export interface MemberBelief {
  organizationId: string;
  userId: string;
  role: 'owner' | 'admin' | 'member' | 'none' | 'unknown';
}

/**
 * An OAuth grant (a connection) as the MCP client was told: issued by a code exchange, ended by a
 * revocation, a code replay or a late refresh replay (docs/oauth.md).
 */
export interface GrantBelief {
  id: string;
  userId: string;
  /** live: told issued and not told ended; revoked: told ended; unknown: an ambiguous answer may have ended it. */
  state: 'live' | 'revoked' | 'unknown';
  requestIds: string[];
}

/** A broken rule: what, and the answers (request ids) that show it. */
export interface Violation {
  invariant: string;
  message: string;
  requestIds: string[];
}

export class Ledger {
  readonly sessions = new Map<string, SessionBelief>();
  readonly users = new Map<string, UserBelief>();
  readonly applications = new Map<string, ApplicationBelief>();
  readonly keys = new Map<string, KeyBelief>();
  readonly members = new Map<string, MemberBelief>();
  readonly impersonations = new Map<
    string,
    { id: string; state: 'running' | 'ended' | 'unknown'; requestIds: string[] }
  >();
  /** Names of creations whose answer was ambiguous or a success: each is in the table at most once. */
  readonly createdNames = new Map<string, { kind: 'application' | 'organization'; told: boolean }>();
  /** Per application: sign-ins answered 200, and sign-ins whose answer was ambiguous. */
  readonly signIns = new Map<string, { told: number; ambiguous: number }>();
  /** Per sign-in code (scope, address, code): how many verify or approve answers accepted it. */
  readonly acceptances = new Map<string, { count: number; requestIds: string[] }>();
  /** Per user agent of a sign-in attempt: the sign-in it was (one session at most each). */
  readonly attemptAgents = new Map<string, { scope: string; email: string; told: boolean }>();
  readonly grants = new Map<string, GrantBelief>();
  /** Per authorization code: the token answers that redeemed it. */
  readonly redemptions = new Map<string, { count: number; requestIds: string[] }>();
  /** Per refresh token: the successor the first rotation told (every later one must tell the same). */
  readonly successors = new Map<string, { successor: string; requestIds: string[] }>();
  /**
   * Revocations of a user's sessions told done with sessions ended (`count > 0`), by the user agent
   * of the request: each must have its entry in the application's audit trail.
   */
  readonly sessionsRevoked = new Map<
    string,
    { userId: string; applicationId: string; requestIds: string[] }
  >();
  /** Violations seen while the clients ran (an answer outside its contract, a code accepted twice, ...). */
  readonly violations: Violation[] = [];

  /** How many times each of the clients' own checks ran (violated or not). */
  readonly tested = new Map<string, number>();

  /** Counts one check of `invariant`, a violation when it does not hold. */
  expect(invariant: string, holds: boolean, message: () => string, requestIds: string[] = []): boolean {
    this.tested.set(invariant, (this.tested.get(invariant) ?? 0) + 1);
    if (!holds) this.violations.push({ invariant, message: message(), requestIds });
    return holds;
  }

  /** Why flows were refused (not a violation: what the report lists to explain them). */
  readonly refusals = new Map<string, number>();

  note(refusal: string): void {
    this.refusals.set(refusal, (this.refusals.get(refusal) ?? 0) + 1);
  }

  /** Counts one check of `invariant` that held. */
  pass(invariant: string): void {
    this.expect(invariant, true, () => '');
  }

  violate(invariant: string, message: string, requestIds: string[] = []): void {
    this.expect(invariant, false, () => message, requestIds);
  }

  /**
   * What a sign-in's 200 answer tells (a code, a poll or a social exchange): its live session, and
   * the address's account, the same one as before if there was one. The platform's accounts are
   * not kept (the invariants follow an application's users). `how` says how it signed in, for the
   * violation's message.
   */
  signedIn(
    user: { email: string; belief?: UserBelief },
    scope: string,
    // biome-ignore lint/suspicious/noExplicitAny: an answer's body, read field by field as the flows read it.
    answer: { body: any; requestIds: string[] },
    how: string,
  ): SessionBelief {
    const token = answer.body.token as string;
    const userId = answer.body.user.id as string;
    const session: SessionBelief = {
      id: answer.body.session.id,
      userId,
      scope,
      jti: claimsOf(token).jti,
      state: 'live',
      jtiUncertain: false,
      requestIds: answer.requestIds,
    };
    this.sessions.set(session.id, session);
    if (!user.belief) {
      const name = (answer.body.user.name as string | null | undefined) ?? null;
      user.belief = {
        id: userId,
        scope,
        email: user.email,
        state: 'exists',
        disabled: false,
        name,
        names: new Set([name]),
        requestIds: answer.requestIds,
      };
      if (scope !== 'platform') this.users.set(userId, user.belief);
    } else {
      const before = user.belief.id;
      this.expect(
        'one account per address per scope',
        before === userId,
        () => `${user.email} signed in ${how} as ${userId}, before as ${before}`,
        answer.requestIds,
      );
    }
    return session;
  }

  signInOf(applicationId: string) {
    let counts = this.signIns.get(applicationId);
    if (!counts) {
      counts = { told: 0, ambiguous: 0 };
      this.signIns.set(applicationId, counts);
    }
    return counts;
  }

  accept(key: string, requestIds: string[]): void {
    const seen = this.acceptances.get(key) ?? { count: 0, requestIds: [] };
    seen.count++;
    seen.requestIds.push(...requestIds);
    this.acceptances.set(key, seen);
    this.expect(
      'code accepted once',
      seen.count <= 1,
      () => `code ${key} accepted ${seen.count} times`,
      seen.requestIds,
    );
  }

  /** A code exchange told done: a code is redeemed at most once (OAuth 2.1 §4.1.3). */
  redeem(code: string, requestIds: string[]): void {
    const seen = this.redemptions.get(code) ?? { count: 0, requestIds: [] };
    seen.count++;
    seen.requestIds.push(...requestIds);
    this.redemptions.set(code, seen);
    this.expect(
      'an authorization code is redeemed at most once',
      seen.count <= 1,
      () => `an authorization code redeemed ${seen.count} times`,
      seen.requestIds,
    );
  }

  /** A rotation told done: every rotation of one refresh token names the same successor. */
  rotate(token: string, successor: string, requestIds: string[]): void {
    const first = this.successors.get(token);
    if (!first) {
      this.successors.set(token, { successor, requestIds });
      this.pass('a refresh token has one successor');
      return;
    }
    this.expect(
      'a refresh token has one successor',
      first.successor === successor,
      () => 'two rotations of one refresh token answered two different successors',
      [...first.requestIds, ...requestIds],
    );
  }

  memberKey = (organizationId: string, userId: string) => `${organizationId}/${userId}`;
}
