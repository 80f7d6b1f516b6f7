/**
 * The chaos harness's virtual clients (docs/reliability.md, "The harness"). Each one owns a small
 * world it alone changes: a platform owner with its organization, an application with a public and a
 * secret key, a colleague account, and the application's end users. So every belief it records is
 * exact: what it was told last about each thing is what the table must hold, unless the answer
 * was ambiguous (a 500, a network error, a retry given up), which the ledger keeps as unknown.
 * Its flows: sign-in by code (verify, and approve + poll, a synthetic address's by peek), refresh,
 * sign-out, revocations, profile updates, organizations, their members and invitations,
 * applications, API keys, the configuration, users disabled, enabled and deleted, statistics reads;
 * and, in files of their own, OAuth and MCP (bench/chaos/oauth-flows.ts) and social sign-in
 * (bench/chaos/social-flows.ts).
 */
import type { RouteId } from '../../shared/routes.ts';
import type { ChaosHosts } from './hosts.ts';
import type { Answer, ChaosHttp } from './http.ts';
import {
  type ClientKit,
  type EndUser,
  type Inbox,
  isAmbiguous,
  type Outcome,
  sendUntilTold,
  sleep,
} from './kit.ts';
import { claimsOf, type Ledger, type MemberBelief, type SessionBelief, type UserBelief } from './ledger.ts';
import { OAuthFlows } from './oauth-flows.ts';
import { SOCIAL_RETURN_URL, SocialFlows } from './social-flows.ts';

interface Account {
  email: string;
  userId: string;
  token: string;
  /** How many starts this address has made in its scope (3 per 10 minutes: docs/security.md). */
  starts: number;
}

/** The most starts a client spends on one address in its scope (the limit is 3 per 10 minutes). */
const STARTS_PER_ADDRESS = 3;
const FREE_PLAN_APPLICATIONS = 3;
const ACTIVE_KEY_LIMIT = 20;
/** The application's domain of synthetic test addresses, whose codes peek shows (docs/api.md). */
const SYNTHETIC_DOMAIN = 'bots.chaos.test';
/** The secrets of the application owner's social clients (docs/social-sign-in.md). */
const GITHUB_SECRET = 'chaos-github-secret';
const OIDC_SECRET = 'chaos-oidc-secret';

/** Another code of the same form (XXXX-XXXX): its last character changed. */
const otherCode = (code: string) => `${code.slice(0, -1)}${code.endsWith('A') ? 'B' : 'A'}`;

export class VirtualClient {
  owner!: Account & { organizationId: string };
  colleague!: Account;
  /** An account the colleague invites when an admin, so that the colleague's removal voids the invitation. */
  invitee!: Account;
  /** Its keys: a public one, a secret one, and a public one only social sign-in exchanges with. */
  application!: { id: string; publicKey: string; secretKey: string; socialKey: string };
  readonly endUsers: EndUser[] = [];
  /** Applications this client created besides its main one, and keys besides its two. */
  readonly extraApplications: string[] = [];
  readonly extraKeys: string[] = [];
  /** The last told token of each session this client holds. */
  readonly #tokens = new Map<string, string>();
  /** Tokens of sessions told ended, and keys told revoked: each must be refused from then on. */
  readonly #mustRefuse: Array<{ token?: string; key?: string; what: string; requestIds: string[] }> = [];
  /** Checks of other areas run after the flow, again after later flows while their answer is ambiguous. */
  readonly #probes: Array<() => Promise<'done' | 'again'>> = [];
  /** The full key of each key this client created, by id. */
  readonly #keyText = new Map<string, string>();
  #serial = 0;
  /**
   * The official origins the application's configuration may hold: the one it was told last, and
   * any an ambiguous write or origin learning may have stored since.
   */
  readonly origins = new Set<string | null>([null]);
  readonly #oauth: OAuthFlows;
  readonly #social: SocialFlows;

  constructor(
    readonly id: number,
    private readonly http: ChaosHttp,
    private readonly ledger: Ledger,
    private readonly inbox: Inbox,
    /** This client's own seeded choices. */
    private readonly random: () => number,
    private readonly hosts: ChaosHosts,
    service: { issuer: string; serviceName: string },
  ) {
    const client = this;
    const kit: ClientKit = {
      id,
      ledger,
      random,
      inbox,
      issuer: service.issuer,
      serviceName: service.serviceName,
      call: (flow, ...args) => this.#call(flow, ...args),
      name: (prefix) => this.#name(prefix),
      serial: () => ++this.#serial,
      pick: (items) => this.#pick(items),
      get owner() {
        return client.owner;
      },
      get application() {
        return client.application;
      },
      endUsers: this.endUsers,
      managedUser: (filter = () => true) =>
        this.#managedUser((user) => user.disabled === false && filter(user)),
      hold: (session, token) => {
        this.#tokens.set(session.id, token);
      },
      ended: (predicate, how) => this.#ended(predicate, how),
      probeLater: (probe) => {
        this.#probes.push(probe);
      },
      again: (flow, first, send, success, onSuccess) => this.#again(flow, first, send, success, onSuccess),
    };
    this.#oauth = new OAuthFlows(kit, hosts.clientId);
    this.#social = new SocialFlows(kit, hosts);
  }

  #name(prefix: string): string {
    return `${prefix} ${this.id}-${++this.#serial}`;
  }

  #pick<T>(items: readonly T[]): T | undefined {
    return items.length === 0 ? undefined : items[Math.floor(this.random() * items.length)];
  }

  #call(
    flow: string,
    ...args: Parameters<ChaosHttp['call']> extends [number, string, ...infer R] ? R : never
  ) {
    return this.http.call(this.id, flow, ...args);
  }

  // ---------------------------------------------------------------------------------------------
  // Set-up: the client's world, made before faults start.

  async setUp(): Promise<void> {
    const owner = await this.#signInFresh('setup', 'platform', `owner-${this.id}-${Date.now()}@chaos.test`);
    const colleague = await this.#signInFresh(
      'setup',
      'platform',
      `colleague-${this.id}-${Date.now()}@chaos.test`,
    );
    const invitee = await this.#signInFresh(
      'setup',
      'platform',
      `invitee-${this.id}-${Date.now()}@chaos.test`,
    );
    if (!owner || !colleague || !invitee) throw new Error(`client ${this.id}: set-up sign-in failed`);
    this.invitee = invitee;
    const organizations = await this.#call(
      'setup',
      'listOrganizations',
      {},
      { headers: this.#bearer(owner.token) },
    );
    const organizationId = organizations.body?.items?.[0]?.id as string | undefined;
    if (!organizationId) throw new Error(`client ${this.id}: no organization (${organizations.status})`);
    this.owner = { ...owner, organizationId };
    this.colleague = colleague;
    const created = await this.#call(
      'setup',
      'createApplication',
      { organizationId },
      {
        headers: this.#bearer(owner.token),
        body: { name: this.#name('Chaos App') },
      },
    );
    if (created.status !== 201) throw new Error(`client ${this.id}: create application ${created.status}`);
    const applicationId = created.body.id as string;
    this.ledger.applications.set(applicationId, {
      id: applicationId,
      organizationId,
      state: 'exists',
      name: created.body.name,
      names: new Set([created.body.name]),
    });
    const keyOf = async (type: 'public' | 'secret') => {
      const key = await this.#call(
        'setup',
        'createApiKey',
        {},
        {
          headers: this.#bearer(owner.token),
          body: { applicationId, type },
        },
      );
      if (key.status !== 201) throw new Error(`client ${this.id}: create ${type} key ${key.status}`);
      this.ledger.keys.set(key.body.id, { id: key.body.id, applicationId, state: 'active' });
      return key.body.key as string;
    };
    this.application = {
      id: applicationId,
      publicKey: await keyOf('public'),
      secretKey: await keyOf('secret'),
      // Its own, so an exchange is often the key's first use in its minute (noted: docs/api.md, API keys).
      socialKey: await keyOf('public'),
    };
    // Social sign-in with the owner's own clients at both providers, and a domain of synthetic
    // addresses (docs/social-sign-in.md; docs/api.md, Configuration): set by the owner, as only an
    // owner or admin may set social sign-in.
    const github = `gh-${applicationId}`;
    this.hosts.githubClient(github, GITHUB_SECRET);
    const configured = await this.#call(
      'setup',
      'patchConfiguration',
      { applicationId },
      {
        headers: this.#bearer(owner.token),
        body: {
          authentication: { syntheticEmailDomain: SYNTHETIC_DOMAIN },
          socialProviders: {
            github: { enabled: true, clientId: github, clientSecret: GITHUB_SECRET },
            oidc: {
              enabled: true,
              clientId: `oidc-${applicationId}`,
              clientSecret: OIDC_SECRET,
              issuer: this.hosts.oidcIssuer,
            },
          },
          socialReturnUrls: [SOCIAL_RETURN_URL],
        },
      },
    );
    if (configured.status !== 200)
      throw new Error(`client ${this.id}: configure social sign-in ${configured.status} ${configured.text}`);
  }

  #bearer(token: string, extra: Record<string, string> = {}) {
    return { authorization: `Bearer ${token}`, ...extra };
  }

  #secretKey() {
    return { 'x-api-key': this.application.secretKey };
  }

  // ---------------------------------------------------------------------------------------------
  // Sign-in by code.

  /** A platform account signed in for the first time (set-up only: faults are off). */
  async #signInFresh(flow: string, scope: 'platform', email: string): Promise<Account | undefined> {
    const signedIn = await this.#signIn(flow, scope, { email, starts: 0 }, 'verify');
    if (signedIn.outcome !== 'ok' || !signedIn.session) return undefined;
    return { email, userId: signedIn.session.userId, token: signedIn.token!, starts: 1 };
  }

  /**
   * start -> the emailed code -> verify, or approve + poll (RFC 8628 style). Records the user, the
   * session, the code's acceptance and the sign-in count. A replay of the accepted code must fail.
   */
  async #signIn(
    flow: string,
    scope: string,
    user: { email: string; starts: number; belief?: UserBelief },
    mode: 'verify' | 'poll',
  ): Promise<{ outcome: Outcome; session?: SessionBelief; token?: string }> {
    const keyHeader: Record<string, string> =
      scope === 'platform' ? {} : { 'x-api-key': this.application.publicKey };
    // Each attempt its own user agent: the session it makes is found by it (one at most).
    const agent = `chaos/${this.id}/${flow}/${++this.#serial}`;
    const headers = { ...keyHeader, 'user-agent': agent };
    user.starts++;
    this.inbox.take(user.email);
    const start = await this.#call(flow, 'codeStart', {}, { headers, body: { email: user.email } });
    if (start.status !== 200) return this.#refused(flow, 'codeStart', start);
    const synthetic = user.email.endsWith(`@${SYNTHETIC_DOMAIN}`);
    let code: string | undefined;
    if (synthetic) {
      // docs/api.md: a synthetic address is never mailed; peek shows its pending code to the secret key.
      const peeked = await this.#call(
        flow,
        'codePeek',
        {},
        { headers: this.#secretKey(), body: { email: user.email } },
      );
      if (isAmbiguous(peeked)) return { outcome: 'ambiguous' };
      code = peeked.status === 200 ? (peeked.body.code as string) : undefined;
      if (
        !this.ledger.expect(
          'peek shows the pending code of a synthetic address',
          code !== undefined,
          () => `peek answered ${peeked.status} ${peeked.code ?? ''}`,
          [...start.requestIds, ...peeked.requestIds],
        ) ||
        code === undefined
      )
        return { outcome: 'refused' };
    } else {
      code = this.inbox.take(user.email);
      if (!code) {
        this.ledger.violate(
          'start mails its code',
          `start answered 200 but no code reached ${user.email}`,
          start.requestIds,
        );
        return { outcome: 'refused' };
      }
      this.ledger.pass('start mails its code');
    }
    if (mode === 'verify' && this.random() < 0.15) {
      // A wrong code first: refused, one attempt counted (docs/api.md, Sign-in), the right one still works.
      const wrong = await this.#call(
        flow,
        'codeVerify',
        {},
        { headers, body: { email: user.email, code: otherCode(code) } },
      );
      if (!isAmbiguous(wrong))
        this.ledger.expect(
          'a wrong code is refused',
          wrong.status === 400 && wrong.code === 'VALIDATION_ERROR',
          () => `a wrong code answered ${wrong.status} ${wrong.code ?? ''}`,
          wrong.requestIds,
        );
    }
    const codeKey = `${scope}#${user.email}#${code}`;
    this.ledger.attemptAgents.set(agent, { scope, email: user.email, told: false });
    const counts = scope === 'platform' ? undefined : this.ledger.signInOf(scope);
    let answer: Answer;
    if (mode === 'verify') {
      answer = await this.#call(flow, 'codeVerify', {}, { headers, body: { email: user.email, code } });
      if (answer.status === 200) this.ledger.accept(codeKey, answer.requestIds);
    } else {
      const approved = await this.#call(
        flow,
        'codeApprove',
        {},
        { headers, body: { email: user.email, code } },
      );
      if (approved.status === 200) this.ledger.accept(codeKey, approved.requestIds);
      else if (!isAmbiguous(approved)) return this.#refused(flow, 'codeApprove', approved);
      // The approved code is used: verifying it too must fail (docs/api.md: single use).
      if (approved.status === 200 && this.random() < 0.2) {
        const again = await this.#call(
          flow,
          'codeVerify',
          {},
          { headers, body: { email: user.email, code } },
        );
        if (again.status === 200) this.ledger.accept(codeKey, again.requestIds);
      }
      answer = await this.#poll(flow, start.body.deviceCode as string, headers);
      // An approval whose answer said nothing may not have landed: pending is then no refusal.
      if (answer.status === 428 && approved.status !== 200) return { outcome: 'ambiguous' };
    }
    if (answer.status !== 200) {
      if (isAmbiguous(answer) && counts) counts.ambiguous++;
      return this.#refused(flow, mode === 'verify' ? 'codeVerify' : 'codePoll', answer);
    }
    if (counts) counts.told++;
    this.ledger.attemptAgents.set(agent, { scope, email: user.email, told: true });
    const token = answer.body.token as string;
    const session = this.ledger.signedIn(user, scope, answer, 'by code');
    this.#tokens.set(session.id, token);
    // A replay of the code that was just accepted is refused, whatever the faults.
    if (mode === 'verify' && this.random() < 0.15) {
      const replay = await this.#call(flow, 'codeVerify', {}, { headers, body: { email: user.email, code } });
      if (replay.status === 200) this.ledger.accept(codeKey, replay.requestIds);
    }
    return { outcome: 'ok', session, token };
  }

  /** A sign-in that did not succeed: ambiguous, or refused with the answer noted for the report. */
  #refused(flow: string, route: string, answer: Answer): { outcome: Outcome } {
    if (isAmbiguous(answer)) return { outcome: 'ambiguous' };
    this.ledger.note(`${flow}: ${route} ${answer.status} ${answer.code ?? ''}`.trim());
    return { outcome: 'refused' };
  }

  /** Polls until the approved request answers, waiting as RFC 8628 §3.5 asks (authorization_pending, slow_down). */
  async #poll(flow: string, deviceCode: string, headers: Record<string, string>): Promise<Answer> {
    for (let polls = 0; ; polls++) {
      const answer = await this.#call(flow, 'codePoll', {}, { headers, body: { deviceCode }, retry: false });
      const reason = answer.body?.error?.details?.reason as string | undefined;
      const interval = Number(answer.body?.error?.details?.interval ?? 5);
      if (polls >= 3) return answer;
      if (answer.status === 428 && reason === 'authorization_pending') await sleep(interval * 1000);
      else if (answer.status === 429 && reason === 'slow_down') await sleep(interval * 1000);
      else if (answer.status === 503 || (answer.status === 429 && answer.code === 'RATE_LIMITED')) {
        await sleep(Number(answer.headers['retry-after'] ?? 1) * 1000);
      } else return answer;
    }
  }

  /** A new end user of the application, signed in. */
  async signInNewUser(mode: 'verify' | 'poll'): Promise<Outcome> {
    const user: EndUser = { email: `user-${this.id}-${++this.#serial}-${Date.now()}@chaos.test`, starts: 0 };
    this.endUsers.push(user);
    return (await this.#signIn(`signIn.${mode}`, this.application.id, user, mode)).outcome;
  }

  /** A new end user at the application's synthetic domain, signed in with the code peek shows. */
  async signInSynthetic(): Promise<Outcome> {
    const user: EndUser = {
      email: `bot-${this.id}-${++this.#serial}-${Date.now()}@${SYNTHETIC_DOMAIN}`,
      starts: 0,
    };
    this.endUsers.push(user);
    return (await this.#signIn('signIn.synthetic', this.application.id, user, 'verify')).outcome;
  }

  /** An existing end user signed in again. */
  async signInAgain(): Promise<Outcome> {
    const user = this.#pick(
      this.endUsers.filter(
        (u) => u.belief?.state === 'exists' && u.belief.disabled === false && u.starts < STARTS_PER_ADDRESS,
      ),
    );
    if (!user) return 'skipped';
    return (
      await this.#signIn('signIn.again', this.application.id, user, this.random() < 0.5 ? 'verify' : 'poll')
    ).outcome;
  }

  // ---------------------------------------------------------------------------------------------
  // Races: what concurrent clients of one account do at once.

  /** Three verifies of one code at once: it is accepted once at most (docs/api.md: single use). */
  async raceVerify(): Promise<Outcome> {
    const user: EndUser = { email: `race-${this.id}-${++this.#serial}-${Date.now()}@chaos.test`, starts: 1 };
    this.endUsers.push(user);
    const scope = this.application.id;
    const headers = {
      'x-api-key': this.application.publicKey,
      'user-agent': `chaos/${this.id}/race/${this.#serial}`,
    };
    this.inbox.take(user.email);
    const start = await this.#call('race.verify', 'codeStart', {}, { headers, body: { email: user.email } });
    const code = start.status === 200 ? this.inbox.take(user.email) : undefined;
    if (!code) return isAmbiguous(start) ? 'ambiguous' : 'refused';
    this.ledger.attemptAgents.set(headers['user-agent'], { scope, email: user.email, told: false });
    const answers = await Promise.all(
      [0, 1, 2].map(() =>
        this.#call('race.verify', 'codeVerify', {}, { headers, body: { email: user.email, code } }),
      ),
    );
    const counts = this.ledger.signInOf(scope);
    const won = answers.filter((answer) => answer.status === 200);
    for (const answer of won) this.ledger.accept(`${scope}#${user.email}#${code}`, answer.requestIds);
    const first = won[0];
    if (!first) {
      if (answers.some(isAmbiguous)) counts.ambiguous++;
      return answers.some(isAmbiguous) ? 'ambiguous' : 'refused';
    }
    counts.told += won.length;
    const session: SessionBelief = {
      id: first.body.session.id,
      userId: first.body.user.id,
      scope,
      jti: claimsOf(first.body.token).jti,
      state: 'live',
      jtiUncertain: false,
      requestIds: first.requestIds,
    };
    this.ledger.sessions.set(session.id, session);
    this.#tokens.set(session.id, first.body.token);
    user.belief = {
      id: session.userId,
      scope,
      email: user.email,
      state: 'exists',
      disabled: false,
      name: first.body.user.name ?? null,
      names: new Set([first.body.user.name ?? null]),
      requestIds: first.requestIds,
    };
    this.ledger.users.set(session.userId, user.belief);
    return 'ok';
  }

  /** Two refreshes of one token at once: one wins, and the token it answered works. */
  async raceRefresh(): Promise<Outcome> {
    const held = await this.#sessionToUse();
    if (!held) return 'skipped';
    const answers = await Promise.all(
      [0, 1].map(() => this.#call('race.refresh', 'refresh', {}, { headers: this.#bearer(held.token) })),
    );
    const won = answers.filter((answer) => answer.status === 200);
    if (won.length > 0 || answers.some(isAmbiguous)) this.ledger.pass('a told live session works');
    if (won.length <= 1) this.ledger.pass('one refresh of a token wins');
    else {
      this.ledger.violate(
        'one refresh of a token wins',
        `two refreshes of session ${held.session.id} both answered 200`,
        won.flatMap((answer) => answer.requestIds),
      );
    }
    const winner = won[0];
    if (winner) {
      held.session.jti = claimsOf(winner.body.token).jti;
      this.#tokens.set(held.session.id, winner.body.token);
      return 'ok';
    }
    if (answers.some(isAmbiguous)) {
      held.session.jtiUncertain = true;
      return 'ambiguous';
    }
    this.ledger.violate(
      'a told live session works',
      `both refreshes of live session ${held.session.id} were refused`,
      [...held.session.requestIds, ...answers.flatMap((answer) => answer.requestIds)],
    );
    return 'refused';
  }

  /** Creates to beyond the plan at once: the plan holds (docs/api.md, Organizations, Plans). */
  async raceApplications(): Promise<Outcome> {
    const organizationId = this.owner.organizationId;
    const owner = this.#bearer(this.owner.token);
    const names = [0, 1, 2].map(() => this.#name('Chaos Race'));
    const answers = await Promise.all(
      names.map((name) =>
        this.#call('race.apps', 'createApplication', { organizationId }, { headers: owner, body: { name } }),
      ),
    );
    answers.forEach((answer, i) => {
      const name = names[i]!;
      this.ledger.createdNames.set(name, { kind: 'application', told: answer.status === 201 });
      if (answer.status !== 201) return;
      this.extraApplications.push(answer.body.id);
      this.ledger.applications.set(answer.body.id, {
        id: answer.body.id,
        organizationId,
        state: 'exists',
        name,
        names: new Set([name]),
      });
    });
    // Back under the plan for the other flows.
    while (this.extraApplications.length > 0) {
      const outcome = await this.#deleteApplication(this.extraApplications[0]!);
      if (outcome !== 'ok') return outcome;
    }
    return answers.some(isAmbiguous) ? 'ambiguous' : 'ok';
  }

  // ---------------------------------------------------------------------------------------------
  // Sessions.

  /** A session told live with the token of its last told refresh, of a user told enabled. */
  #liveSession(
    filter: (session: SessionBelief) => boolean = () => true,
  ): { session: SessionBelief; token: string } | undefined {
    const candidates = [...this.#tokens.entries()]
      .map(([id, token]) => ({ session: this.ledger.sessions.get(id)!, token }))
      .filter(
        ({ session }) =>
          session.state === 'live' &&
          !session.jtiUncertain &&
          this.ledger.users.get(session.userId)?.disabled === false &&
          this.ledger.users.get(session.userId)?.state === 'exists' &&
          filter(session),
      );
    return this.#pick(candidates);
  }

  /** Signs a new user in (or an existing one again) and keeps its token. */
  async #freshSession(): Promise<{ session: SessionBelief; token: string } | undefined> {
    const user: EndUser = { email: `user-${this.id}-${++this.#serial}-${Date.now()}@chaos.test`, starts: 0 };
    this.endUsers.push(user);
    const signed = await this.#signIn('session.fresh', this.application.id, user, 'verify');
    if (!signed.session || !signed.token) return undefined;
    return { session: signed.session, token: signed.token };
  }

  async #sessionToUse(): Promise<{ session: SessionBelief; token: string } | undefined> {
    return this.#liveSession() ?? (await this.#freshSession());
  }

  /** Told live sessions that a request told ended. */
  #ended(predicate: (session: SessionBelief) => boolean, how: 'ended' | 'unknown'): void {
    for (const session of this.ledger.sessions.values()) {
      if (!predicate(session) || session.state === 'ended') continue;
      session.state = how;
      const token = this.#tokens.get(session.id);
      if (how === 'ended' && token) {
        this.#mustRefuse.push({ token, what: `session ${session.id}`, requestIds: session.requestIds });
      }
      if (how === 'ended') this.#tokens.delete(session.id);
    }
  }

  async refresh(): Promise<Outcome> {
    const held = await this.#sessionToUse();
    if (!held) return 'skipped';
    const answer = await this.#call('refresh', 'refresh', {}, { headers: this.#bearer(held.token) });
    if (answer.status === 200 || isAmbiguous(answer)) this.ledger.pass('a told live session works');
    if (answer.status === 200) {
      const token = answer.body.token as string;
      if (answer.body.session.id === held.session.id) this.ledger.pass('refresh keeps the session');
      else {
        this.ledger.violate(
          'refresh keeps the session',
          `refresh of ${held.session.id} answered ${answer.body.session.id}`,
          answer.requestIds,
        );
      }
      held.session.jti = claimsOf(token).jti;
      this.#tokens.set(held.session.id, token);
      return 'ok';
    }
    if (isAmbiguous(answer)) {
      held.session.jtiUncertain = true;
      return 'ambiguous';
    }
    this.ledger.violate(
      'a told live session works',
      `refresh of live session ${held.session.id} answered ${answer.status} ${answer.code}`,
      [...held.session.requestIds, ...answer.requestIds],
    );
    return 'refused';
  }

  async readSession(): Promise<Outcome> {
    const held = await this.#sessionToUse();
    if (!held) return 'skipped';
    const answer = await this.#call('session.read', 'session', {}, { headers: this.#bearer(held.token) });
    if (answer.status === 200 || isAmbiguous(answer)) this.ledger.pass('a told live session works');
    if (answer.status === 200 && answer.body?.user?.id === held.session.userId) {
      const list = await this.#call(
        'session.read',
        'listSessions',
        {},
        { headers: this.#bearer(held.token) },
      );
      if (list.status === 200 || isAmbiguous(list)) return list.status === 200 ? 'ok' : 'ambiguous';
      this.ledger.violate(
        'a told live session works',
        `list-sessions answered ${list.status}`,
        list.requestIds,
      );
      return 'refused';
    }
    if (isAmbiguous(answer)) return 'ambiguous';
    this.ledger.violate(
      'a told live session works',
      `GET /auth/session of live ${held.session.id} answered ${answer.status}`,
      [...held.session.requestIds, ...answer.requestIds],
    );
    return 'refused';
  }

  async signOut(): Promise<Outcome> {
    const held = await this.#sessionToUse();
    if (!held) return 'skipped';
    const { userId, scope } = held.session;
    const answer = await this.#call('signOut', 'signOut', {}, { headers: this.#bearer(held.token) });
    const mine = (session: SessionBelief) => session.userId === userId && session.scope === scope;
    if (answer.status === 200) {
      this.#ended(mine, 'ended');
      return 'ok';
    }
    this.#ended(mine, 'unknown');
    return isAmbiguous(answer) ? 'ambiguous' : 'refused';
  }

  async revokeOne(): Promise<Outcome> {
    const held = await this.#sessionToUse();
    if (!held) return 'skipped';
    // A second session of the same user, to revoke by id with the first.
    const user = this.endUsers.find((u) => u.belief?.id === held.session.userId);
    if (!user || user.starts >= STARTS_PER_ADDRESS) return 'skipped';
    const second = await this.#signIn('revoke.byId', this.application.id, user, 'verify');
    if (!second.session || !second.token) return second.outcome;
    const answer = await this.#call(
      'revoke.byId',
      'revokeSessionById',
      {},
      {
        headers: this.#bearer(held.token),
        body: { id: second.session.id },
      },
    );
    const target = (session: SessionBelief) => session.id === second.session?.id;
    if (answer.status === 200) {
      this.#ended(target, 'ended');
      return 'ok';
    }
    this.#ended(target, 'unknown');
    if (isAmbiguous(answer))
      return this.#again(
        'revoke.byId',
        answer,
        () =>
          this.#call(
            'revoke.byId',
            'revokeSessionById',
            {},
            { headers: this.#bearer(held.token), body: { id: second.session!.id } },
          ),
        [200],
        () => this.#ended(target, 'ended'),
      );
    return 'refused';
  }

  async revokeOthers(): Promise<Outcome> {
    const held = await this.#sessionToUse();
    if (!held) return 'skipped';
    const { userId, scope, id } = held.session;
    const answer = await this.#call(
      'revoke.others',
      'revokeOtherSessions',
      {},
      { headers: this.#bearer(held.token) },
    );
    const others = (session: SessionBelief) =>
      session.userId === userId && session.scope === scope && session.id !== id;
    if (answer.status === 200) {
      this.#ended(others, 'ended');
      return 'ok';
    }
    this.#ended(others, 'unknown');
    return isAmbiguous(answer) ? 'ambiguous' : 'refused';
  }

  async updateProfile(): Promise<Outcome> {
    const held = await this.#sessionToUse();
    if (!held) return 'skipped';
    const user = this.ledger.users.get(held.session.userId);
    if (!user) return 'skipped';
    const name = this.#name('Chaos User');
    const send = () =>
      this.#call('profile.update', 'updateUser', {}, { headers: this.#bearer(held.token), body: { name } });
    const answer = await send();
    return this.#nameAnswer(user, name, answer, send);
  }

  #nameAnswer(
    user: UserBelief,
    name: string,
    answer: Answer,
    send: () => Promise<Answer>,
  ): Promise<Outcome> | Outcome {
    const told = () => {
      user.name = name;
      user.names = new Set([name]);
    };
    if (answer.status === 200) {
      told();
      return 'ok';
    }
    user.names.add(name);
    if (isAmbiguous(answer)) return this.#again('profile.update', answer, send, [200], told);
    return 'refused';
  }

  /**
   * A change safe to send again (docs/reliability.md, "What a client can rely on"): `told` applies
   * what its success tells; any other answer leaves the belief as `unknown` sets it, and an ambiguous
   * one is settled by sending the same request again (`#again`), which must answer as the first
   * success would have: `resent` lists the statuses that count, the first the success itself (a
   * DELETE's 404 follows it, once what it deletes is gone).
   */
  async #change(
    flow: string,
    send: () => Promise<Answer>,
    told: (answer: Answer) => void,
    unknown: () => void,
    resent: [number, ...number[]] = [200],
  ): Promise<Outcome> {
    const answer = await send();
    if (answer.status === resent[0]) {
      told(answer);
      return 'ok';
    }
    unknown();
    if (isAmbiguous(answer)) return this.#again(flow, answer, send, resent, told);
    return 'refused';
  }

  /**
   * After an ambiguous answer, a client may send the same request again; docs/reliability.md: the
   * retry answers as the first success would have (`success`), or ambiguously again. Anything else is
   * a violation: the first attempt's partial write changed what the retry sees.
   */
  async #again(
    flow: string,
    first: Answer,
    send: () => Promise<Answer>,
    success: number[],
    onSuccess: (answer: Answer) => void,
  ): Promise<Outcome> {
    // A persistent client: it sends again until an answer is not ambiguous (or it tires).
    const retry = await sendUntilTold(send, 100);
    this.ledger.pass('a retry answers as the first success');
    if (success.includes(retry.status)) {
      onSuccess(retry);
      return 'ok';
    }
    if (isAmbiguous(retry)) return 'ambiguous';
    this.ledger.violate(
      'a retry answers as the first success',
      `${flow}: after ${first.status} ${first.code ?? ''}, the same request answered ${retry.status} ${retry.code ?? ''}`,
      [...first.requestIds, ...retry.requestIds],
    );
    return 'refused';
  }

  // ---------------------------------------------------------------------------------------------
  // Organizations and members.

  async renameOrganization(): Promise<Outcome> {
    const name = this.#name('Chaos Org');
    const send = () =>
      this.#call(
        'org.rename',
        'updateOrganization',
        { organizationId: this.owner.organizationId },
        {
          headers: this.#bearer(this.owner.token),
          body: { name },
        },
      );
    const answer = await send();
    if (answer.status === 200) return answer.body.name === name ? 'ok' : 'refused';
    if (isAmbiguous(answer)) return this.#again('org.rename', answer, send, [200], () => undefined);
    return 'refused';
  }

  /** Invite the colleague, who accepts; change its role; remove it. */
  async members(): Promise<Outcome> {
    const organizationId = this.owner.organizationId;
    const key = this.ledger.memberKey(organizationId, this.colleague.userId);
    const belief = this.ledger.members.get(key) ?? {
      organizationId,
      userId: this.colleague.userId,
      role: 'none',
    };
    this.ledger.members.set(key, belief);
    const owner = this.#bearer(this.owner.token);
    if (belief.role === 'none' || belief.role === 'unknown') {
      const invited = await this.#call(
        'members',
        'addMember',
        { organizationId },
        {
          headers: owner,
          body: { email: this.colleague.email, role: 'member' },
        },
      );
      if (invited.status !== 202) return isAmbiguous(invited) ? 'ambiguous' : 'refused';
      // Sometimes the invitation goes no further: the colleague declines it, or the owner revokes it.
      if (belief.role === 'none' && this.random() < 0.3)
        return this.#withdrawInvitation(organizationId, belief);
      const accepted = await this.#call(
        'members',
        'acceptInvitation',
        { organizationId },
        {
          headers: this.#bearer(this.colleague.token),
        },
      );
      if (accepted.status === 200) belief.role = 'member';
      else if (accepted.status === 409 && accepted.code === 'ALREADY_MEMBER') belief.role = 'unknown';
      else {
        belief.role = 'unknown';
        return isAmbiguous(accepted) ? 'ambiguous' : 'refused';
      }
    }
    if (belief.role === 'unknown') {
      // Learn where it stands from the member list, as any client would.
      const list = await this.#call('members', 'listMembers', { organizationId }, { headers: owner });
      if (list.status !== 200) return 'ambiguous';
      const found = (list.body.items as Array<{ userId: string; role: MemberRole }>).find(
        (m) => m.userId === this.colleague.userId,
      );
      belief.role = found?.role ?? 'none';
      return 'ok';
    }
    const role: MemberRole = belief.role === 'admin' ? 'member' : 'admin';
    const changeSend = () =>
      this.#call(
        'members',
        'updateMember',
        { organizationId, userId: this.colleague.userId },
        { headers: owner, body: { role } },
      );
    const changed = await changeSend();
    if (changed.status === 200) belief.role = role;
    else if (isAmbiguous(changed)) {
      belief.role = 'unknown';
      return this.#again('members.change', changed, changeSend, [200], () => {
        belief.role = role;
      });
    } else return 'refused';
    if (this.random() < 0.5) return 'ok';
    const removeSend = () =>
      this.#call(
        'members',
        'removeMember',
        { organizationId, userId: this.colleague.userId },
        { headers: owner },
      );
    const removed = await removeSend();
    if (removed.status === 204) {
      belief.role = 'none';
      return 'ok';
    }
    belief.role = 'unknown';
    if (isAmbiguous(removed))
      return this.#again('members.remove', removed, removeSend, [204, 404], () => {
        belief.role = 'none';
      });
    return 'refused';
  }

  /**
   * A pending invitation declined by its invitee or revoked by the owner (both may be sent again:
   * 204 when none is pending); accepting it is 404 from then on (docs/api.md, Organizations).
   */
  async #withdrawInvitation(organizationId: string, belief: { role: string }): Promise<Outcome> {
    const flow = 'members.withdraw';
    const send =
      this.random() < 0.5
        ? () =>
            this.#call(
              flow,
              'declineInvitation',
              { organizationId },
              { headers: this.#bearer(this.colleague.token) },
            )
        : () =>
            this.#call(
              flow,
              'revokeInvitation',
              { organizationId, email: this.colleague.email },
              { headers: this.#bearer(this.owner.token) },
            );
    const answer = await send();
    const outcome =
      answer.status === 204
        ? 'ok'
        : isAmbiguous(answer)
          ? await this.#again(flow, answer, send, [204], () => undefined)
          : 'refused';
    if (outcome !== 'ok') return outcome;
    const accepted = await this.#call(
      flow,
      'acceptInvitation',
      { organizationId },
      { headers: this.#bearer(this.colleague.token) },
    );
    if (isAmbiguous(accepted)) return 'ok';
    if (accepted.status === 200) belief.role = 'member';
    this.ledger.expect(
      'a withdrawn invitation cannot be accepted',
      accepted.status === 404,
      () => `accepting a withdrawn invitation answered ${accepted.status} ${accepted.code ?? ''}`,
      [...answer.requestIds, ...accepted.requestIds],
    );
    return 'ok';
  }

  /**
   * An invitation voided by its inviter's removal (docs/api.md, Organizations): the colleague, an
   * admin, invites another account; the owner removes the colleague; the invitation can no longer be
   * accepted (404), and that accept deletes it.
   */
  async voidInvitation(): Promise<Outcome> {
    const flow = 'members.void';
    const organizationId = this.owner.organizationId;
    const belief = this.ledger.members.get(this.ledger.memberKey(organizationId, this.colleague.userId));
    if (belief?.role !== 'admin') return this.members();
    const inviteeKey = this.ledger.memberKey(organizationId, this.invitee.userId);
    const invitee = this.ledger.members.get(inviteeKey) ?? {
      organizationId,
      userId: this.invitee.userId,
      role: 'none',
    };
    this.ledger.members.set(inviteeKey, invitee);
    // An accept whose answer said nothing may have made it a member: a new invitation would not be void.
    if (invitee.role !== 'none') return 'skipped';
    const invited = await this.#call(
      flow,
      'addMember',
      { organizationId },
      {
        headers: this.#bearer(this.colleague.token),
        body: { email: this.invitee.email, role: 'member' },
      },
    );
    if (invited.status !== 202) return isAmbiguous(invited) ? 'ambiguous' : 'refused';
    const remove = () =>
      this.#call(
        flow,
        'removeMember',
        { organizationId, userId: this.colleague.userId },
        { headers: this.#bearer(this.owner.token) },
      );
    const gone = () => {
      belief.role = 'none';
    };
    const removed = await remove();
    if (removed.status === 204) gone();
    else {
      belief.role = 'unknown';
      const outcome = isAmbiguous(removed)
        ? await this.#again(flow, removed, remove, [204, 404], gone)
        : 'refused';
      if (outcome !== 'ok') return outcome;
    }
    const accepted = await this.#call(
      flow,
      'acceptInvitation',
      { organizationId },
      {
        headers: this.#bearer(this.invitee.token),
      },
    );
    if (isAmbiguous(accepted)) {
      invitee.role = 'unknown';
      return 'ambiguous';
    }
    if (accepted.status === 200) invitee.role = 'member';
    this.ledger.expect(
      'a void invitation cannot be accepted',
      accepted.status === 404,
      () =>
        `accepting an invitation whose inviter was removed answered ${accepted.status} ${accepted.code ?? ''}`,
      [...invited.requestIds, ...removed.requestIds, ...accepted.requestIds],
    );
    return 'ok';
  }

  /**
   * Another organization of the owner: created, then deleted (it holds no application). Creations
   * whose answer said nothing may have left some: at the limit they are found and deleted.
   */
  async organizations(): Promise<Outcome> {
    const owner = this.#bearer(this.owner.token);
    const name = this.#name('Chaos Side Org');
    const created = await this.#call('orgs', 'createOrganization', {}, { headers: owner, body: { name } });
    this.ledger.createdNames.set(name, { kind: 'organization', told: created.status === 201 });
    if (created.status === 403 && created.code === 'ORGANIZATION_LIMIT_REACHED') {
      const list = await this.#call('orgs', 'listOrganizations', {}, { headers: owner });
      if (list.status !== 200) return 'ambiguous';
      const extra = (list.body.items as Array<{ id: string }>).find(
        (item) => item.id !== this.owner.organizationId,
      );
      return extra ? this.#deleteOrganization(extra.id) : 'refused';
    }
    if (created.status !== 201) return isAmbiguous(created) ? 'ambiguous' : 'refused';
    return this.#deleteOrganization(created.body.id as string);
  }

  async #deleteOrganization(organizationId: string): Promise<Outcome> {
    const send = () =>
      this.#call(
        'orgs.delete',
        'deleteOrganization',
        { organizationId },
        { headers: this.#bearer(this.owner.token) },
      );
    const answer = await send();
    if (answer.status === 204) return 'ok';
    // docs/reliability.md: a DELETE sent again answers 204, or 404 once what it deletes is gone.
    if (isAmbiguous(answer)) return this.#again('orgs.delete', answer, send, [204, 404], () => undefined);
    return 'refused';
  }

  /**
   * The application's configuration (docs/api.md, Configuration): its official origin set by a
   * PATCH (the secret key's or the owner's) or by a PUT of the whole document as read (the owner's,
   * social sign-in kept); both may be sent again. What it was told last is what it holds.
   */
  async configuration(): Promise<Outcome> {
    const flow = 'config';
    const applicationId = this.application.id;
    const origin = `https://app-${this.id}-${++this.#serial}.chaos.test`;
    let send: () => Promise<Answer>;
    if (this.random() < 0.4) {
      const read = await this.#call(
        flow,
        'getConfiguration',
        { applicationId },
        { headers: this.#bearer(this.owner.token) },
      );
      if (read.status !== 200) return isAmbiguous(read) ? 'ambiguous' : 'refused';
      const document = { ...read.body, origin };
      send = () =>
        this.#call(
          flow,
          'replaceConfiguration',
          { applicationId },
          {
            headers: this.#bearer(this.owner.token),
            body: document,
          },
        );
    } else {
      const headers = this.random() < 0.5 ? this.#secretKey() : this.#bearer(this.owner.token);
      send = () => this.#call(flow, 'patchConfiguration', { applicationId }, { headers, body: { origin } });
    }
    return this.#setOrigin(flow, origin, send);
  }

  /** A configuration write of `origin`: told, it is the one; ambiguous, it may be. */
  async #setOrigin(flow: string, origin: string | null, send: () => Promise<Answer>): Promise<Outcome> {
    const told = () => {
      this.origins.clear();
      this.origins.add(origin);
    };
    return this.#change(flow, send, told, () => {
      this.origins.add(origin);
    });
  }

  /**
   * Origin learning (docs/api.md): the owner removes the official origin; the next request with a
   * key and a real `Origin` records it (best effort: it may not), and a key that had not seen it is
   * marked when it first comes from it.
   */
  async originLearning(): Promise<Outcome> {
    const flow = 'origin';
    const applicationId = this.application.id;
    const cleared = await this.#setOrigin(flow, null, () =>
      this.#call(
        flow,
        'patchConfiguration',
        { applicationId },
        {
          headers: this.#bearer(this.owner.token),
          body: { origin: null },
        },
      ),
    );
    if (cleared !== 'ok') return cleared;
    // A name under a public suffix: a reserved one (.test) is never recorded (shared/tenancy/origins.ts).
    const origin = `https://site-${this.id}-${++this.#serial}.chaos-harness.dev`;
    if (this.origins.has(null)) this.origins.add(origin);
    const learned = await this.#call(
      flow,
      'applicationByApiKey',
      {},
      {
        headers: { 'x-api-key': this.application.publicKey, origin },
      },
    );
    if (learned.status !== 200) return isAmbiguous(learned) ? 'ambiguous' : 'refused';
    const marked = await this.#call(
      flow,
      'applicationByApiKey',
      {},
      {
        headers: { 'x-api-key': this.application.secretKey, origin },
      },
    );
    if (marked.status !== 200) return isAmbiguous(marked) ? 'ambiguous' : 'refused';
    return 'ok';
  }

  // ---------------------------------------------------------------------------------------------
  // Applications and keys.

  /** Create an application (making room under the plan first), rename it, and delete it. */
  async applications(): Promise<Outcome> {
    const organizationId = this.owner.organizationId;
    const owner = this.#bearer(this.owner.token);
    if (this.extraApplications.length >= FREE_PLAN_APPLICATIONS - 1) {
      const outcome = await this.#deleteApplication(this.extraApplications[0]!);
      if (outcome !== 'ok') return outcome;
    }
    const name = this.#name('Chaos Extra');
    const created = await this.#call(
      'apps',
      'createApplication',
      { organizationId },
      { headers: owner, body: { name } },
    );
    this.ledger.createdNames.set(name, { kind: 'application', told: created.status === 201 });
    if (created.status === 403 && created.code === 'PLAN_LIMIT_REACHED') return this.#makeRoom();
    if (created.status !== 201) return isAmbiguous(created) ? 'ambiguous' : 'refused';
    const applicationId = created.body.id as string;
    this.extraApplications.push(applicationId);
    const belief = {
      id: applicationId,
      organizationId,
      state: 'exists' as const,
      name,
      names: new Set([name]),
    };
    this.ledger.applications.set(applicationId, belief);
    const renamed = this.#name('Chaos Renamed');
    const renameSend = () =>
      this.#call('apps', 'updateApplication', { applicationId }, { headers: owner, body: { name: renamed } });
    const answer = await renameSend();
    const told = () => {
      belief.name = renamed;
      belief.names = new Set([renamed]);
    };
    if (answer.status === 200) told();
    else {
      belief.names.add(renamed);
      if (!isAmbiguous(answer)) return 'refused';
      const again = await this.#again('apps.rename', answer, renameSend, [200], told);
      if (again !== 'ok') return again;
    }
    return this.random() < 0.5 ? this.#deleteApplication(applicationId) : 'ok';
  }

  /** The plan is full of applications this client does not know of (ambiguous creates): delete one. */
  async #makeRoom(): Promise<Outcome> {
    const list = await this.#call(
      'apps',
      'listApplications',
      { organizationId: this.owner.organizationId },
      {
        headers: this.#bearer(this.owner.token),
      },
    );
    if (list.status !== 200) return 'ambiguous';
    const extra = (list.body.items as Array<{ id: string }>).find((item) => item.id !== this.application.id);
    if (!extra) return 'refused';
    if (!this.ledger.applications.has(extra.id)) {
      this.ledger.applications.set(extra.id, {
        id: extra.id,
        organizationId: this.owner.organizationId,
        state: 'exists',
        name: '',
        names: new Set(),
      });
    }
    if (!this.extraApplications.includes(extra.id)) this.extraApplications.push(extra.id);
    return this.#deleteApplication(extra.id);
  }

  async #deleteApplication(applicationId: string): Promise<Outcome> {
    const belief = this.ledger.applications.get(applicationId);
    const send = () =>
      this.#call(
        'apps.delete',
        'deleteApplication',
        { applicationId },
        { headers: this.#bearer(this.owner.token) },
      );
    const gone = () => {
      if (belief) belief.state = 'deleted';
      this.extraApplications.splice(this.extraApplications.indexOf(applicationId), 1);
    };
    return this.#change(
      'apps.delete',
      send,
      gone,
      () => {
        if (belief) belief.state = 'unknown';
      },
      [204, 404],
    );
  }

  /** Create a key of the main application (revoking one first at the limit), and revoke one. */
  async keys(): Promise<Outcome> {
    const owner = this.#bearer(this.owner.token);
    const applicationId = this.application.id;
    if (this.extraKeys.length >= ACTIVE_KEY_LIMIT - 4) {
      const outcome = await this.#revokeKey(this.extraKeys[0]!);
      if (outcome !== 'ok') return outcome;
    }
    const created = await this.#call(
      'keys',
      'createApiKey',
      {},
      {
        headers: owner,
        body: { applicationId, type: this.random() < 0.5 ? 'public' : 'secret' },
      },
    );
    if (created.status === 403 && created.code === 'API_KEY_LIMIT_REACHED') return this.#revokeUnknownKey();
    if (created.status !== 201) return isAmbiguous(created) ? 'ambiguous' : 'refused';
    this.ledger.keys.set(created.body.id, { id: created.body.id, applicationId, state: 'active' });
    this.#keyText.set(created.body.id, created.body.key);
    this.extraKeys.push(created.body.id);
    // The new key works at once (keys are read strongly consistently: docs/api.md, API keys).
    const used = await this.#call(
      'keys',
      'applicationByApiKey',
      {},
      { headers: { 'x-api-key': created.body.key } },
    );
    if (used.status === 200 || isAmbiguous(used)) this.ledger.pass('a told created key works');
    else {
      this.ledger.violate('a told created key works', `a new key answered ${used.status}`, [
        ...created.requestIds,
        ...used.requestIds,
      ]);
    }
    return this.random() < 0.5 ? this.#revokeKey(created.body.id) : 'ok';
  }

  async #revokeUnknownKey(): Promise<Outcome> {
    const list = await this.#call(
      'keys',
      'listApiKeys',
      { applicationId: this.application.id },
      {
        headers: this.#bearer(this.owner.token),
      },
    );
    if (list.status !== 200) return 'ambiguous';
    const mainKeys = new Set(
      [...this.ledger.keys.values()]
        .filter((k) => k.applicationId === this.application.id)
        .slice(0, 3)
        .map((k) => k.id),
    );
    const extra = (list.body.items as Array<{ id: string; revokedAt: string | null }>).find(
      (item) => item.revokedAt === null && !mainKeys.has(item.id),
    );
    if (!extra) return 'refused';
    if (!this.ledger.keys.has(extra.id)) {
      this.ledger.keys.set(extra.id, { id: extra.id, applicationId: this.application.id, state: 'active' });
    }
    if (!this.extraKeys.includes(extra.id)) this.extraKeys.push(extra.id);
    return this.#revokeKey(extra.id);
  }

  async #revokeKey(keyId: string): Promise<Outcome> {
    const belief = this.ledger.keys.get(keyId);
    const send = () =>
      this.#call(
        'keys.revoke',
        'revokeApiKey',
        { applicationId: this.application.id, keyId },
        {
          headers: this.#bearer(this.owner.token),
        },
      );
    const revoked = () => {
      if (belief) belief.state = 'revoked';
      const key = this.#keyText.get(keyId);
      if (key) this.#mustRefuse.push({ key, what: `key ${keyId}`, requestIds: [] });
      this.extraKeys.splice(this.extraKeys.indexOf(keyId), 1);
    };
    // docs/api.md, API keys: revoking again answers the same record.
    return this.#change('keys.revoke', send, revoked, () => {
      if (belief) belief.state = 'unknown';
    });
  }

  // ---------------------------------------------------------------------------------------------
  // The application's users, managed with its secret key.

  #managedUser(filter: (user: UserBelief) => boolean): UserBelief | undefined {
    return this.#pick(
      this.endUsers
        .map((u) => u.belief)
        .filter(
          (b): b is UserBelief =>
            b !== undefined && b.state === 'exists' && b.disabled !== 'unknown' && filter(b),
        ),
    );
  }

  async #targetUser(filter: (user: UserBelief) => boolean = () => true): Promise<UserBelief | undefined> {
    const found = this.#managedUser(filter);
    if (found) return found;
    await this.#freshSession();
    return this.#managedUser(filter);
  }

  async disableEnable(): Promise<Outcome> {
    const user = await this.#targetUser((u) => u.disabled === false);
    if (!user) return 'skipped';
    const params = { applicationId: this.application.id, userId: user.id };
    const disable = () => this.#call('users.disable', 'disableUser', params, { headers: this.#secretKey() });
    const sessionsOf = (session: SessionBelief) => session.userId === user.id;
    const disabled = () => {
      user.disabled = true;
      this.#ended(sessionsOf, 'ended');
    };
    const answer = await disable();
    if (answer.status === 200) disabled();
    else {
      user.disabled = 'unknown';
      this.#ended(sessionsOf, 'unknown');
      if (!isAmbiguous(answer)) return 'refused';
      const again = await this.#again('users.disable', answer, disable, [200], disabled);
      if (again !== 'ok') return again;
    }
    if (this.random() < 0.4) await this.#disabledSignIn(user);
    if (this.random() < 0.3) return 'ok';
    const enable = () => this.#call('users.enable', 'enableUser', params, { headers: this.#secretKey() });
    const enabled = () => {
      user.disabled = false;
    };
    return this.#change('users.enable', enable, enabled, () => {
      user.disabled = 'unknown';
    });
  }

  /** Enables a user this client left disabled, so it may sign in again. */
  async enableOne(): Promise<Outcome> {
    const user = this.#managedUser((u) => u.disabled === true);
    if (!user) return 'skipped';
    const answer = await this.#call(
      'users.enable',
      'enableUser',
      { applicationId: this.application.id, userId: user.id },
      {
        headers: this.#secretKey(),
      },
    );
    if (answer.status === 200) {
      user.disabled = false;
      return 'ok';
    }
    user.disabled = 'unknown';
    return isAmbiguous(answer) ? 'ambiguous' : 'refused';
  }

  async deleteUser(): Promise<Outcome> {
    const user = await this.#targetUser();
    if (!user) return 'skipped';
    const params = { applicationId: this.application.id, userId: user.id };
    const send = () => this.#call('users.delete', 'deleteUser', params, { headers: this.#secretKey() });
    const sessionsOf = (session: SessionBelief) => session.userId === user.id;
    // docs/api.md, Users: its memberships go with it.
    const memberships = (role: 'none' | 'unknown') => {
      for (const member of this.ledger.members.values()) if (member.userId === user.id) member.role = role;
    };
    const deleted = () => {
      user.state = 'deleted';
      this.#ended(sessionsOf, 'ended');
      memberships('none');
    };
    // docs/api.md, Users: a retry after the delete answers 404, the user gone whole.
    return this.#change(
      'users.delete',
      send,
      deleted,
      () => {
        user.state = 'unknown';
        this.#ended(sessionsOf, 'unknown');
        memberships('unknown');
      },
      [204, 404],
    );
  }

  async revokeUserSessions(): Promise<Outcome> {
    const user = await this.#targetUser();
    if (!user) return 'skipped';
    const params = { applicationId: this.application.id, userId: user.id };
    // Its own user agent: the audit entry of a revocation that ended sessions is found by it.
    const agent = `chaos/${this.id}/revoke-sessions/${++this.#serial}`;
    const send = () =>
      this.#call('users.revokeSessions', 'revokeUserSessions', params, {
        headers: { ...this.#secretKey(), 'user-agent': agent },
      });
    const sessionsOf = (session: SessionBelief) => session.userId === user.id;
    const done = (answer: Answer) => {
      this.#ended(sessionsOf, 'ended');
      if (Number(answer.body?.count) > 0)
        this.ledger.sessionsRevoked.set(agent, {
          userId: user.id,
          applicationId: this.application.id,
          requestIds: answer.requestIds,
        });
    };
    return this.#change('users.revokeSessions', send, done, () => {
      this.#ended(sessionsOf, 'unknown');
    });
  }

  async renameUser(): Promise<Outcome> {
    const user = await this.#targetUser();
    if (!user) return 'skipped';
    const name = this.#name('Managed Name');
    const send = () =>
      this.#call(
        'users.rename',
        'updateApplicationUser',
        { applicationId: this.application.id, userId: user.id },
        {
          headers: this.#secretKey(),
          body: { name },
        },
      );
    return this.#nameAnswer(user, name, await send(), send);
  }

  /**
   * The owner impersonates a user (docs/api.md, Impersonation), reads the session as it, and
   * (mostly) ends it with its own token; one left running is ended by whatever ends the user's sessions.
   */
  async impersonate(): Promise<Outcome> {
    const user = await this.#targetUser((u) => u.disabled === false);
    if (!user) return 'skipped';
    const started = await this.#call(
      'impersonate',
      'startImpersonation',
      { applicationId: this.application.id, userId: user.id },
      {
        headers: this.#bearer(this.owner.token),
        body: { reason: `chaos ${this.id}` },
      },
    );
    if (started.status !== 201) return isAmbiguous(started) ? 'ambiguous' : 'refused';
    const id = started.body.impersonation.id as string;
    const token = started.body.token as string;
    const belief = {
      id,
      state: 'running' as 'running' | 'ended' | 'unknown',
      requestIds: started.requestIds,
    };
    this.ledger.impersonations.set(id, belief);
    const seen = await this.#call('impersonate', 'session', {}, { headers: this.#bearer(token) });
    if (seen.status === 200 || isAmbiguous(seen)) this.ledger.pass('a told impersonation works');
    else {
      this.ledger.violate('a told impersonation works', `its session answered ${seen.status}`, [
        ...started.requestIds,
        ...seen.requestIds,
      ]);
    }
    if (this.random() < 0.25) return 'ok';
    const end = () => this.#call('impersonate', 'endImpersonation', { id }, { headers: this.#bearer(token) });
    const ended = () => {
      belief.state = 'ended';
    };
    // docs/api.md: ending is idempotent, a later end answers the record unchanged.
    return this.#change('impersonate.end', end, ended, () => {
      belief.state = 'unknown';
    });
  }

  /** A tenant organization of a user: created, renamed, another user added and removed, deleted. */
  async tenantOrganizations(): Promise<Outcome> {
    const owner = await this.#targetUser((u) => u.disabled === false);
    const other = this.#managedUser((u) => u.disabled === false && u.id !== owner?.id);
    if (!owner) return 'skipped';
    const applicationId = this.application.id;
    const headers = this.#secretKey();
    const name = this.#name('Chaos Tenant');
    const created = await this.#call(
      'tenants',
      'createTenantOrganization',
      { applicationId },
      {
        headers,
        body: { name, userId: owner.id },
      },
    );
    this.ledger.createdNames.set(name, { kind: 'organization', told: created.status === 201 });
    if (created.status !== 201) return isAmbiguous(created) ? 'ambiguous' : 'refused';
    const organizationId = created.body.id as string;
    const params = { applicationId, organizationId };
    const renamed = this.#name('Chaos Tenant Renamed');
    const rename = () =>
      this.#call('tenants', 'updateTenantOrganization', params, { headers, body: { name: renamed } });
    const answer = await rename();
    if (answer.status !== 200) {
      if (!isAmbiguous(answer)) return 'refused';
      const again = await this.#again('tenants.rename', answer, rename, [200], () => undefined);
      if (again !== 'ok') return again;
    }
    if (other) {
      const added = await this.#call('tenants', 'addTenantMember', params, {
        headers,
        body: { email: other.email, role: 'member' },
      });
      const key = this.ledger.memberKey(organizationId, other.id);
      if (added.status === 201) {
        const belief: MemberBelief = { organizationId, userId: other.id, role: 'member' };
        this.ledger.members.set(key, belief);
        const changed = await this.#tenantMember(params, belief);
        if (changed !== 'ok') return changed;
      } else if (isAmbiguous(added))
        this.ledger.members.set(key, { organizationId, userId: other.id, role: 'unknown' });
      else return 'refused';
    }
    if (this.random() < 0.3) return 'ok';
    const remove = () => this.#call('tenants', 'deleteTenantOrganization', params, { headers });
    const deleted = await remove();
    const gone = () => {
      for (const member of this.ledger.members.values())
        if (member.organizationId === organizationId) member.role = 'none';
    };
    if (deleted.status === 204) {
      gone();
      return 'ok';
    }
    for (const member of this.ledger.members.values())
      if (member.organizationId === organizationId) member.role = 'unknown';
    if (isAmbiguous(deleted)) return this.#again('tenants.delete', deleted, remove, [204, 404], gone);
    return 'refused';
  }

  /**
   * A tenant organization's member made admin, and sometimes removed (docs/api.md, Tenant
   * organizations); both may be sent again (a second removal answers 404).
   */
  async #tenantMember(
    params: { applicationId: string; organizationId: string },
    belief: MemberBelief,
  ): Promise<Outcome> {
    const headers = this.#secretKey();
    const member = { ...params, userId: belief.userId };
    if (this.random() < 0.5) {
      const change = () =>
        this.#call('tenants.members', 'updateTenantMember', member, { headers, body: { role: 'admin' } });
      const told = () => {
        belief.role = 'admin';
      };
      const changed = await change();
      if (changed.status === 200) told();
      else {
        belief.role = 'unknown';
        if (!isAmbiguous(changed)) return 'refused';
        const again = await this.#again('tenants.members', changed, change, [200], told);
        if (again !== 'ok') return again;
      }
    }
    if (this.random() < 0.5) return 'ok';
    const remove = () => this.#call('tenants.members', 'removeTenantMember', member, { headers });
    const gone = () => {
      belief.role = 'none';
    };
    return this.#change(
      'tenants.members',
      remove,
      gone,
      () => {
        belief.role = 'unknown';
      },
      [204, 404],
    );
  }

  /**
   * Reads of what the client owns, a few at random, by whoever may read it: each answers its
   * success (or ambiguously), within its route's contract like every answer.
   */
  async reads(): Promise<Outcome> {
    const applicationId = this.application.id;
    const organizationId = this.owner.organizationId;
    const owner = this.#bearer(this.owner.token);
    const key = this.#secretKey();
    const user = this.#managedUser(() => true);
    const reads: Array<[RouteId, Record<string, string>, Record<string, string>, number]> = [
      ['getApplication', { applicationId }, key, 200],
      ['listApplications', { organizationId }, owner, 200],
      ['getOrganization', { organizationId }, owner, 200],
      ['listMembers', { organizationId }, owner, 200],
      ['listOrganizationInvitations', { organizationId }, owner, 200],
      ['listInvitations', {}, this.#bearer(this.colleague.token), 200],
      ['listApiKeys', { applicationId }, owner, 200],
      ['listAudit', { applicationId }, owner, 200],
      ['listOrganizationAudit', { organizationId }, owner, 200],
      ['listUsers', { applicationId }, key, 200],
      ['listTenantOrganizations', { applicationId }, key, 200],
      ['oauthProtectedResourceOfApplication', { id: applicationId }, {}, 200],
      ['oauthAuthorizationServer', {}, {}, 200],
      ['jwks', {}, {}, 200],
      ['status', {}, {}, 200],
      ['mcpGet', { applicationId }, {}, 405],
    ];
    if (user) reads.push(['getUser', { applicationId, userId: user.id }, key, 200]);
    let outcome: Outcome = 'ok';
    for (let n = 0; n < 4; n++) {
      const [route, params, headers, success] = this.#pick(reads)!;
      const answer = await this.#call('reads', route, params, { headers });
      if (isAmbiguous(answer)) {
        outcome = 'ambiguous';
        continue;
      }
      this.ledger.expect(
        "a read of the client's own things succeeds",
        answer.status === success,
        () => `${route} answered ${answer.status} ${answer.code ?? ''}`,
        answer.requestIds,
      );
    }
    return outcome;
  }

  async statistics(): Promise<Outcome> {
    const answer = await this.#call(
      'statistics',
      'getStatistics',
      { applicationId: this.application.id },
      {
        headers: this.#secretKey(),
      },
    );
    if (answer.status === 200) return 'ok';
    return isAmbiguous(answer) ? 'ambiguous' : 'refused';
  }

  /**
   * After each flow: every session token told ended and every key told revoked is refused (401) on
   * its next use, whatever the faults (docs/api.md: tokens and keys stop at once), and so is every
   * token of a grant told revoked (docs/oauth.md, Revocation). An ambiguous probe is tried again
   * after the next flow.
   */
  async afterFlow(): Promise<void> {
    for (const probe of this.#probes.splice(0)) {
      if ((await probe()) === 'again') this.#probes.push(probe);
    }
    const pending = this.#mustRefuse.splice(0);
    for (const probe of pending) {
      const answer = probe.token
        ? await this.#call('probe', 'session', {}, { headers: this.#bearer(probe.token) })
        : await this.#call('probe', 'applicationByApiKey', {}, { headers: { 'x-api-key': probe.key! } });
      if (isAmbiguous(answer)) {
        this.#mustRefuse.push(probe);
        continue;
      }
      this.ledger.expect(
        probe.token ? "an ended session's token is refused" : 'a revoked key is refused',
        answer.status === 401,
        () => `${probe.what} answered ${answer.status} after it was told ended`,
        [...probe.requestIds, ...answer.requestIds],
      );
    }
  }

  /** A disabled user's sign-in is refused (docs/api.md, Users): start, then verify the emailed code. */
  async #disabledSignIn(user: UserBelief): Promise<void> {
    const endUser = this.endUsers.find((u) => u.belief === user);
    if (!endUser || endUser.starts >= STARTS_PER_ADDRESS) return;
    endUser.starts++;
    const headers = { 'x-api-key': this.application.publicKey };
    this.inbox.take(user.email);
    const start = await this.#call(
      'users.disable',
      'codeStart',
      {},
      { headers, body: { email: user.email } },
    );
    const code = start.status === 200 ? this.inbox.take(user.email) : undefined;
    if (!code) return;
    const verify = await this.#call(
      'users.disable',
      'codeVerify',
      {},
      { headers, body: { email: user.email, code } },
    );
    if (isAmbiguous(verify)) return;
    this.ledger.expect(
      'a disabled user cannot sign in',
      verify.status === 403 && verify.code === 'ACCOUNT_DISABLED',
      () => `${user.id} (disabled) verify answered ${verify.status} ${verify.code ?? ''}`,
      [...user.requestIds, ...verify.requestIds],
    );
    if (verify.status === 200) {
      this.ledger.accept(`${user.scope}#${user.email}#${code}`, verify.requestIds);
      this.ledger.signInOf(user.scope).told++;
    }
  }

  /** The flows, by name, with how often a client picks each. */
  readonly flows: ReadonlyArray<{ name: string; weight: number; run: () => Promise<Outcome> }> = [
    { name: 'signIn.verify', weight: 12, run: () => this.signInNewUser('verify') },
    { name: 'signIn.poll', weight: 6, run: () => this.signInNewUser('poll') },
    { name: 'signIn.again', weight: 6, run: () => this.signInAgain() },
    { name: 'refresh', weight: 10, run: () => this.refresh() },
    { name: 'session.read', weight: 6, run: () => this.readSession() },
    { name: 'signOut', weight: 4, run: () => this.signOut() },
    { name: 'revoke.byId', weight: 3, run: () => this.revokeOne() },
    { name: 'revoke.others', weight: 3, run: () => this.revokeOthers() },
    { name: 'profile.update', weight: 6, run: () => this.updateProfile() },
    { name: 'org.rename', weight: 3, run: () => this.renameOrganization() },
    { name: 'members', weight: 3, run: () => this.members() },
    { name: 'apps', weight: 4, run: () => this.applications() },
    { name: 'keys', weight: 4, run: () => this.keys() },
    { name: 'users.disable', weight: 3, run: () => this.disableEnable() },
    { name: 'users.enable', weight: 1, run: () => this.enableOne() },
    { name: 'users.delete', weight: 3, run: () => this.deleteUser() },
    { name: 'users.rename', weight: 2, run: () => this.renameUser() },
    { name: 'users.revokeSessions', weight: 2, run: () => this.revokeUserSessions() },
    { name: 'statistics', weight: 4, run: () => this.statistics() },
    { name: 'race.verify', weight: 3, run: () => this.raceVerify() },
    { name: 'race.refresh', weight: 3, run: () => this.raceRefresh() },
    { name: 'race.apps', weight: 2, run: () => this.raceApplications() },
    { name: 'impersonate', weight: 3, run: () => this.impersonate() },
    { name: 'tenants', weight: 3, run: () => this.tenantOrganizations() },
    { name: 'signIn.synthetic', weight: 3, run: () => this.signInSynthetic() },
    { name: 'orgs', weight: 1, run: () => this.organizations() },
    { name: 'config', weight: 2, run: () => this.configuration() },
    { name: 'origin', weight: 1, run: () => this.originLearning() },
    { name: 'members.void', weight: 1, run: () => this.voidInvitation() },
    { name: 'reads', weight: 2, run: () => this.reads() },
    { name: 'social.signIn', weight: 6, run: () => this.#social.signIn() },
    { name: 'social.page', weight: 1, run: () => this.#social.page() },
    { name: 'oauth.connect', weight: 3, run: () => this.#oauth.connect() },
    { name: 'oauth.refresh', weight: 4, run: () => this.#oauth.refresh() },
    { name: 'oauth.race', weight: 2, run: () => this.#oauth.race() },
    { name: 'oauth.replay', weight: 2, run: () => this.#oauth.replay() },
    { name: 'oauth.revoke', weight: 2, run: () => this.#oauth.revoke() },
    { name: 'oauth.connections', weight: 1, run: () => this.#oauth.connections() },
    { name: 'mcp.read', weight: 3, run: () => this.#oauth.readTool() },
    { name: 'mcp.revokeSessions', weight: 2, run: () => this.#oauth.revokeTool() },
    { name: 'oauth.bridge', weight: 1, run: () => this.#oauth.bridge() },
    { name: 'recentAccounts', weight: 1, run: () => this.#oauth.recentAccounts() },
  ];

  /** A flow at random by weight; among those named in `among` when it names any of them. */
  pickFlow(among?: ReadonlySet<string>) {
    const wanted = this.flows.filter((flow) => among?.has(flow.name));
    const flows = wanted.length > 0 ? wanted : this.flows;
    const total = flows.reduce((sum, flow) => sum + flow.weight, 0);
    let at = this.random() * total;
    for (const flow of flows) {
      at -= flow.weight;
      if (at < 0) return flow;
    }
    return flows[0]!;
  }
}

type MemberRole = 'owner' | 'admin' | 'member';
