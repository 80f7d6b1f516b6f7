/**
 * The chaos clients' OAuth and MCP flows (docs/oauth.md, docs/mcp.md): each client's owner connects
 * an MCP client, identified by the URL of its metadata document (bench/chaos/hosts.ts), to its
 * application's MCP endpoint: the authorization code grant with PKCE S256 and `resource` (RFC 8707),
 * approved on the consent page with the owner's platform session cookie, as a browser would; the
 * refresh token grant with rotation, its races and its replays; revocation (RFC 7009) and the
 * connection routes; tool calls on `POST /mcp/{applicationId}`, the writing one included; and the
 * sign-in bridge a browser without a session goes through.
 *
 * What the client was told goes to the ledger (grants, codes redeemed, successors, revocations of
 * sessions), and what must hold at once is checked at once: a token told issued works at the MCP
 * endpoint until its grant is told revoked, and is refused from then on.
 */
import { createHash, randomBytes } from 'node:crypto';
import { formOf } from '../../fixtures/html-form.ts';
import { REDIRECT_URI } from './hosts.ts';
import type { Answer } from './http.ts';
import {
  Browser,
  type ClientKit,
  form,
  isAmbiguous,
  type Outcome,
  RESENDS,
  said,
  sendUntilTold,
  sleep,
} from './kit.ts';
import { claimsOf, type GrantBelief } from './ledger.ts';

/** A grant this client holds: what it was told of it, and its tokens. */
interface Held {
  belief: GrantBelief;
  access: string;
  /** The refresh token told last; undefined once a rotation answered ambiguously (it may be spent). */
  refresh?: string;
}

/** A rotation told done: the refresh token rotated away and when (epoch ms). */
interface Rotation {
  token: string;
  held: Held;
  /** When the first request that may have rotated it was sent: its `rotatedAt` is not earlier. */
  firstSent: number;
  /** When the rotation was told: its `rotatedAt` is not later. */
  toldAt: number;
}

/** docs/oauth.md, Refresh rotation: a replay within 30 s of the rotation answers its successor. */
const GRACE_MS = 30_000;
/** Within the grace with room to spare (a resend waits, KMS may time out for 1.5 s). */
const SURELY_WITHIN_GRACE_MS = 18_000;
/** After it with room to spare (`rotatedAt` is in whole seconds). */
const SURELY_AFTER_GRACE_MS = GRACE_MS + 2_500;
/** What an owner's token is granted: every scope (docs/mcp.md, Scopes and the step-up). */
const OWNER_SCOPES = 'auth:read auth:write';
const OWNER_TOOLS = 7;

const READ_TOOLS = [
  'auth_get_application',
  'auth_get_statistics',
  'auth_list_users',
  'auth_list_organizations',
  'auth_search',
  'auth_get_user',
] as const;

/** What a tool call's answer says: a result, a failure that says nothing, or a refusal. */
type ToolAnswer =
  | { kind: 'result'; value: Record<string, unknown> }
  | { kind: 'ambiguous' }
  | { kind: 'refused' };

function toolAnswer(answer: Answer): ToolAnswer {
  if (isAmbiguous(answer)) return { kind: 'ambiguous' };
  const result = answer.body?.result as
    | { isError?: boolean; structuredContent?: Record<string, unknown>; content?: Array<{ text?: string }> }
    | undefined;
  if (answer.status !== 200 || !result) return { kind: 'refused' };
  if (!result.isError) return { kind: 'result', value: result.structuredContent ?? {} };
  // docs/mcp.md, Tools: a failure of the tool is its result with the codes of the management API;
  // one of the service (a 500 or a busy table there) says nothing of what happened.
  const code = (() => {
    try {
      return JSON.parse(result.content?.[0]?.text ?? '{}')?.error?.code as string | undefined;
    } catch {
      return undefined;
    }
  })();
  return code === 'INTERNAL_ERROR' || code === 'RATE_LIMITED' || code === 'SERVICE_UNAVAILABLE'
    ? { kind: 'ambiguous' }
    : { kind: 'refused' };
}

export class OAuthFlows {
  readonly #held: Held[] = [];
  readonly #rotations: Rotation[] = [];
  /** The browser of the sign-in bridge and its recent accounts (platform accounts it signed in). */
  readonly #browser = new Browser();

  constructor(
    private readonly kit: ClientKit,
    /** The MCP client's `client_id` (its metadata document's URL). */
    private readonly clientId: string,
  ) {}

  get #resource(): string {
    return `${this.kit.issuer}/mcp/${this.kit.application.id}`;
  }

  get #sessionCookie(): string {
    return `${this.kit.serviceName}.session_token`;
  }

  /** Headers of a form posted by the service's own page (docs/oauth.md, Consent). */
  #ownPage(extra: Record<string, string>): Record<string, string> {
    return {
      origin: new URL(this.kit.issuer).origin,
      'sec-fetch-site': 'same-origin',
      'content-type': 'application/x-www-form-urlencoded',
      ...extra,
    };
  }

  /** Posts `fields` as the bridge's own page does, with this browser's cookies. */
  #postFromPage(flow: string, route: Parameters<ClientKit['call']>[1], fields: Record<string, string>) {
    return this.kit.call(
      flow,
      route,
      {},
      { raw: form(fields).raw, headers: this.#ownPage(this.#browser.header()) },
    );
  }

  #live(): Held | undefined {
    return this.kit.pick(this.#held.filter((held) => held.belief.state === 'live' && held.refresh));
  }

  /** A live grant: one held, or a new connection (or how making one went). */
  async #grant(flow: string): Promise<Held | Outcome> {
    const live = this.#live();
    if (live) return live;
    const connected = await this.#connect(flow, false);
    return connected.held ?? connected.outcome;
  }

  /** `POST /oauth/token`; `refusalExpected` for a replay or a probe of what was ended. */
  #token(flow: string, fields: Record<string, string>, refusalExpected = false): Promise<Answer> {
    const body = form(fields);
    return this.kit.call(
      flow,
      'oauthToken',
      {},
      { raw: body.raw, headers: body.contentType, refusalExpected },
    );
  }

  /** One JSON-RPC message of revision 2026-07-28 to the application's MCP endpoint (docs/mcp.md). */
  #mcp(
    flow: string,
    token: string,
    method: 'tools/list' | 'tools/call',
    tool?: { name: string; arguments: Record<string, unknown> },
    agent?: string,
    refusalExpected = false,
  ): Promise<Answer> {
    return this.kit.call(
      flow,
      'mcp',
      { applicationId: this.kit.application.id },
      {
        body: {
          jsonrpc: '2.0',
          id: this.kit.serial(),
          method,
          params: {
            ...(tool ?? {}),
            _meta: {
              'io.modelcontextprotocol/protocolVersion': '2026-07-28',
              'io.modelcontextprotocol/clientInfo': { name: 'chaos', version: '1.0.0' },
              'io.modelcontextprotocol/clientCapabilities': {},
            },
          },
        },
        headers: {
          authorization: `Bearer ${token}`,
          accept: 'application/json, text/event-stream',
          'mcp-protocol-version': '2026-07-28',
          'mcp-method': method,
          ...(tool ? { 'mcp-name': tool.name } : {}),
          ...(agent ? { 'user-agent': agent } : {}),
        },
        refusalExpected,
      },
    );
  }

  #authorizeQuery(challenge: string, state: string): string {
    return new URLSearchParams({
      response_type: 'code',
      client_id: this.clientId,
      redirect_uri: REDIRECT_URI,
      code_challenge: challenge,
      code_challenge_method: 'S256',
      resource: this.#resource,
      state,
    }).toString();
  }

  // ---------------------------------------------------------------------------------------------
  // The authorization code grant.

  async connect(): Promise<Outcome> {
    return (await this.#connect('oauth.connect', true)).outcome;
  }

  /**
   * The consent page for the owner (its platform cookie), approved; the code exchanged with its
   * verifier; the access token used at once. Sometimes (`mayReplay`) the code is replayed:
   * invalid_grant, and the grant its exchange made ends (OAuth 2.1 §4.1.3).
   */
  async #connect(flow: string, mayReplay: boolean): Promise<{ outcome: Outcome; held?: Held }> {
    const { ledger } = this.kit;
    const verifier = randomBytes(32).toString('base64url');
    const challenge = createHash('sha256').update(verifier).digest('base64url');
    const state = `st-${this.kit.id}-${this.kit.serial()}`;
    const cookie = { cookie: `${this.#sessionCookie}=${this.kit.owner.token}` };
    // Each authorization request stores a request of its own: sending it again is safe.
    const show = () =>
      this.kit.call(
        flow,
        'oauthAuthorize',
        {},
        { query: this.#authorizeQuery(challenge, state), headers: cookie },
      );
    const page = await sendUntilTold(show);
    if (isAmbiguous(page)) return { outcome: 'ambiguous' };
    const consent = page.status === 200 ? formOf(page.text) : undefined;
    if (
      !ledger.expect(
        "an owner's authorization shows the consent page",
        consent?.action === '/oauth/consent',
        () => `authorize answered ${said(page)}`,
        page.requestIds,
      )
    )
      return { outcome: 'refused' };
    const approval = form({ ...consent!.fields, decision: 'approve', confirm: 'yes' });
    const decided = await this.kit.call(
      flow,
      'oauthConsent',
      {},
      { raw: approval.raw, headers: this.#ownPage(cookie) },
    );
    // The request is spent by the first decision: a consent is never sent again.
    if (isAmbiguous(decided)) return { outcome: 'ambiguous' };
    const back = decided.status === 303 ? new URL(String(decided.headers.location)) : undefined;
    const code = back?.searchParams.get('code') ?? undefined;
    if (
      !ledger.expect(
        'a consent to a page just shown redirects with a code',
        back !== undefined &&
          `${back.origin}${back.pathname}` === REDIRECT_URI &&
          code !== undefined &&
          back.searchParams.get('state') === state &&
          back.searchParams.get('iss') === this.kit.issuer,
        () => `consent answered ${said(decided)} ${decided.headers.location ?? ''}`.trim(),
        [...page.requestIds, ...decided.requestIds],
      )
    )
      return { outcome: 'refused' };
    return this.#exchange(flow, code!, verifier, mayReplay);
  }

  /**
   * The code exchanged. docs/oauth.md, Token endpoint: a failure leaves the code unspent, or spent
   * with its grant; so after an ambiguous answer the exchange is sent again, and answers the tokens
   * or invalid_grant (that exchange then ends the grant the first made, which was never told).
   */
  async #exchange(
    flow: string,
    code: string,
    verifier: string,
    mayReplay: boolean,
  ): Promise<{ outcome: Outcome; held?: Held }> {
    const { ledger } = this.kit;
    const fields = {
      grant_type: 'authorization_code',
      code,
      code_verifier: verifier,
      client_id: this.clientId,
      redirect_uri: REDIRECT_URI,
      resource: this.#resource,
    };
    let answer = await this.#token(flow, fields);
    let resent = false;
    for (let tries = 0; isAmbiguous(answer) && tries < RESENDS; tries++) {
      resent = true;
      await sleep(100 * (tries + 1));
      answer = await this.#token(flow, fields);
    }
    if (answer.status !== 200) {
      if (isAmbiguous(answer) || resent) return { outcome: 'ambiguous' };
      ledger.violate(
        'a fresh code is exchanged',
        `the exchange of a code just issued answered ${answer.status} ${answer.code ?? ''}`,
        answer.requestIds,
      );
      return { outcome: 'refused' };
    }
    ledger.redeem(code, answer.requestIds);
    const access = answer.body.access_token as string;
    const claims = claimsOf(access);
    ledger.expect(
      "an owner's token holds every scope",
      answer.body.scope === OWNER_SCOPES,
      () => `an owner's exchange granted "${answer.body.scope}"`,
      answer.requestIds,
    );
    const belief: GrantBelief = {
      id: claims.gid,
      userId: claims.sub,
      state: 'live',
      requestIds: answer.requestIds,
    };
    ledger.grants.set(belief.id, belief);
    const held: Held = { belief, access, refresh: answer.body.refresh_token as string };
    this.#held.push(held);
    await this.#works(flow, held);
    if (mayReplay && this.kit.random() < 0.25) {
      // A replay of a redeemed code: invalid_grant, and the grant it made ends.
      const replay = await this.#token(flow, fields, true);
      if (replay.status === 200) ledger.redeem(code, replay.requestIds);
      else if (isAmbiguous(replay)) this.#unknown(held);
      else {
        ledger.expect(
          'a redeemed code replayed answers invalid_grant',
          replay.status === 400 && replay.code === 'invalid_grant',
          () => `a replayed code answered ${replay.status} ${replay.code ?? ''}`,
          replay.requestIds,
        );
        this.#revoked(held, replay.requestIds);
      }
    }
    return { outcome: 'ok', held };
  }

  /** The grant's access token works at the MCP endpoint while the grant is told live. */
  async #works(flow: string, held: Held): Promise<void> {
    if (held.belief.state !== 'live') return;
    const listed = await this.#mcp(flow, held.access, 'tools/list');
    if (isAmbiguous(listed)) return;
    const tools = listed.body?.result?.tools as unknown[] | undefined;
    this.kit.ledger.expect(
      'a token told issued works at the MCP endpoint until told revoked',
      listed.status === 200 && tools?.length === OWNER_TOOLS,
      () => `tools/list with a live grant's token answered ${listed.status} (${tools?.length ?? 'no'} tools)`,
      [...held.belief.requestIds, ...listed.requestIds],
    );
  }

  /** A grant told ended: its access token is refused at the MCP endpoint, its refresh token is invalid_grant. */
  #revoked(held: Held, requestIds: string[]): void {
    const { ledger } = this.kit;
    held.belief.state = 'revoked';
    held.belief.requestIds.push(...requestIds);
    const at = this.#held.indexOf(held);
    if (at >= 0) this.#held.splice(at, 1);
    const ids = held.belief.requestIds;
    this.kit.probeLater(async () => {
      const answer = await this.#mcp('probe', held.access, 'tools/list', undefined, undefined, true);
      if (isAmbiguous(answer)) return 'again';
      ledger.expect(
        "a told revoked grant's access token is refused",
        answer.status === 401,
        () => `tools/list with a revoked grant's token answered ${answer.status}`,
        [...ids, ...answer.requestIds],
      );
      return 'done';
    });
    const refresh = held.refresh;
    if (!refresh) return;
    this.kit.probeLater(async () => {
      const answer = await this.#token(
        'probe',
        { grant_type: 'refresh_token', refresh_token: refresh },
        true,
      );
      if (isAmbiguous(answer)) return 'again';
      ledger.expect(
        "a told revoked grant's refresh token answers invalid_grant",
        answer.status === 400 && answer.code === 'invalid_grant',
        () => `a revoked grant's refresh token answered ${answer.status} ${answer.code ?? ''}`,
        [...ids, ...answer.requestIds],
      );
      return 'done';
    });
  }

  /** An ambiguous answer may have ended the grant: the client stops using it. */
  #unknown(held: Held): void {
    if (held.belief.state === 'live') held.belief.state = 'unknown';
    const at = this.#held.indexOf(held);
    if (at >= 0) this.#held.splice(at, 1);
  }

  // ---------------------------------------------------------------------------------------------
  // Refresh rotation.

  /**
   * A refresh of the grant's current token (docs/oauth.md, Refresh rotation). Sent again after an
   * ambiguous answer, within the grace: the same successor. Answered, the successor and a new
   * access token that works.
   */
  async refresh(): Promise<Outcome> {
    const flow = 'oauth.refresh';
    const held = await this.#grant(flow);
    if (typeof held === 'string') return held;
    if (!held.refresh) return 'skipped';
    const rotated = await this.#rotate(flow, held);
    return rotated.outcome;
  }

  async #rotate(flow: string, held: Held): Promise<{ outcome: Outcome; token?: string; firstSent?: number }> {
    const token = held.refresh!;
    const fields = {
      grant_type: 'refresh_token',
      refresh_token: token,
      ...(this.kit.random() < 0.5 ? { client_id: this.clientId } : {}),
    };
    const firstSent = Date.now();
    let answer = await this.#token(flow, fields);
    for (let tries = 0; isAmbiguous(answer) && tries < RESENDS; tries++) {
      if (Date.now() - firstSent > SURELY_WITHIN_GRACE_MS) break;
      await sleep(150 * (tries + 1));
      answer = await this.#token(flow, fields);
    }
    if (answer.status === 200) {
      this.#rotated(held, token, answer, firstSent);
      await this.#works(flow, held);
      return { outcome: 'ok', token, firstSent };
    }
    if (isAmbiguous(answer)) {
      // It may have rotated: the token is not used again (a use after the grace would end the grant).
      held.refresh = undefined;
      return { outcome: 'ambiguous' };
    }
    this.kit.ledger.violate(
      'a told refresh token of a live grant rotates',
      `a refresh of a live grant's current token answered ${answer.status} ${answer.code ?? ''}`,
      [...held.belief.requestIds, ...answer.requestIds],
    );
    return { outcome: 'refused' };
  }

  /** A rotation told: the successor is the one every rotation of the token names; the grant is kept. */
  #rotated(held: Held, token: string, answer: Answer, firstSent: number): void {
    const { ledger } = this.kit;
    const successor = answer.body.refresh_token as string;
    const access = answer.body.access_token as string;
    ledger.rotate(token, successor, answer.requestIds);
    ledger.expect(
      'a refresh keeps its grant',
      claimsOf(access).gid === held.belief.id,
      () => `a refresh of grant ${held.belief.id} answered a token of ${claimsOf(access).gid}`,
      answer.requestIds,
    );
    held.access = access;
    if (held.refresh === token) held.refresh = successor;
    held.belief.requestIds = [...held.belief.requestIds.slice(-4), ...answer.requestIds];
    if (!this.#rotations.some((rotation) => rotation.token === token))
      this.#rotations.push({ token, held, firstSent, toldAt: Date.now() });
  }

  /** Two refreshes of one token at once: both answer the one successor (or one waits and does). */
  async race(): Promise<Outcome> {
    const flow = 'oauth.race';
    const held = await this.#grant(flow);
    if (typeof held === 'string') return held;
    if (!held.refresh) return 'skipped';
    const token = held.refresh;
    const firstSent = Date.now();
    const fields = { grant_type: 'refresh_token', refresh_token: token };
    const answers = await Promise.all([this.#token(flow, fields), this.#token(flow, fields)]);
    const won = answers.filter((answer) => answer.status === 200);
    for (const answer of won) this.#rotated(held, token, answer, firstSent);
    if (won.length > 0) {
      await this.#works(flow, held);
      return 'ok';
    }
    if (answers.some(isAmbiguous)) {
      held.refresh = undefined;
      return 'ambiguous';
    }
    this.kit.ledger.violate(
      'a told refresh token of a live grant rotates',
      `two refreshes of a live grant's current token were both refused (${answers.map((a) => `${a.status} ${a.code ?? ''}`).join(', ')})`,
      answers.flatMap((answer) => answer.requestIds),
    );
    return 'refused';
  }

  /**
   * A refresh, then its old token replayed within the grace: the same successor (a client that lost
   * the answer, docs/oauth.md). And, when one rotated long enough ago, a late replay: invalid_grant,
   * and the whole grant ends.
   */
  async replay(): Promise<Outcome> {
    const flow = 'oauth.replay';
    const { ledger } = this.kit;
    const late = this.#rotations.find((rotation) => Date.now() - rotation.toldAt > SURELY_AFTER_GRACE_MS);
    if (late && this.kit.random() < 0.5) {
      this.#rotations.splice(this.#rotations.indexOf(late), 1);
      const answer = await this.#token(
        flow,
        { grant_type: 'refresh_token', refresh_token: late.token },
        true,
      );
      if (isAmbiguous(answer)) {
        this.#unknown(late.held);
        return 'ambiguous';
      }
      ledger.expect(
        'a rotated-away refresh token answers invalid_grant',
        answer.status === 400 && answer.code === 'invalid_grant',
        () =>
          `a token rotated ${Math.round((Date.now() - late.toldAt) / 1000)} s ago answered ${answer.status} ${answer.code ?? ''}`,
        [...late.held.belief.requestIds, ...answer.requestIds],
      );
      // docs/oauth.md: a replay after the grace ends the whole grant.
      if (answer.status === 400 && late.held.belief.state !== 'revoked')
        this.#revoked(late.held, answer.requestIds);
      return 'ok';
    }
    const held = await this.#grant(flow);
    if (typeof held === 'string') return held;
    if (!held.refresh) return 'skipped';
    const rotated = await this.#rotate(flow, held);
    if (rotated.outcome !== 'ok' || !rotated.token) return rotated.outcome;
    if (Date.now() - rotated.firstSent! > SURELY_WITHIN_GRACE_MS) return 'ok';
    const answer = await this.#token(flow, { grant_type: 'refresh_token', refresh_token: rotated.token });
    if (isAmbiguous(answer)) return 'ambiguous';
    if (answer.status === 200) {
      // The same successor (ledger.rotate checks it); a fresh access token that works.
      this.#rotated(held, rotated.token, answer, rotated.firstSent!);
      return 'ok';
    }
    ledger.violate(
      'a refresh token replayed within 30 s answers its successor',
      `a replay ${Math.round((Date.now() - rotated.firstSent!) / 1000)} s after the rotation answered ${answer.status} ${answer.code ?? ''}`,
      [...held.belief.requestIds, ...answer.requestIds],
    );
    return 'refused';
  }

  // ---------------------------------------------------------------------------------------------
  // Revocation and connections.

  /**
   * The grant ended by the client (RFC 7009, its refresh or its access token) or by its user
   * (`POST /auth/revoke-connection`); both may be sent again. Then the connection list no longer
   * shows it, and its tokens are refused.
   */
  async revoke(): Promise<Outcome> {
    const flow = 'oauth.revoke';
    const held = await this.#grant(flow);
    if (typeof held === 'string') return held;
    const how = this.kit.random();
    const send =
      how < 0.35
        ? () =>
            this.kit.call(
              flow,
              'revokeConnection',
              {},
              {
                headers: { authorization: `Bearer ${this.kit.owner.token}` },
                body: { id: held.belief.id },
              },
            )
        : () => {
            const body = form({
              token: how < 0.7 && held.refresh ? held.refresh : held.access,
              client_id: this.clientId,
            });
            return this.kit.call(flow, 'oauthRevoke', {}, { raw: body.raw, headers: body.contentType });
          };
    const answer = await send();
    let outcome: Outcome = 'ok';
    if (answer.status === 200) this.#revoked(held, answer.requestIds);
    else if (isAmbiguous(answer)) {
      this.#unknown(held);
      outcome = await this.kit.again(flow, answer, send, [200], (again) =>
        this.#revoked(held, again.requestIds),
      );
    } else return 'refused';
    if (outcome === 'ok') await this.connections(flow);
    return outcome;
  }

  /** `GET /auth/list-connections`: every grant told live is listed, none told revoked. */
  async connections(flow = 'oauth.connections'): Promise<Outcome> {
    const { ledger } = this.kit;
    const list = await this.kit.call(
      flow,
      'listConnections',
      {},
      { headers: { authorization: `Bearer ${this.kit.owner.token}` } },
    );
    if (isAmbiguous(list)) return 'ambiguous';
    if (list.status !== 200) return 'refused';
    const listed = new Set((list.body.items as Array<{ id: string }>).map((item) => item.id));
    for (const held of this.#held) {
      if (held.belief.state !== 'live') continue;
      ledger.expect(
        'a told live grant is a connection',
        listed.has(held.belief.id),
        () => `grant ${held.belief.id} told live is not listed`,
        [...held.belief.requestIds, ...list.requestIds],
      );
    }
    for (const belief of ledger.grants.values()) {
      if (belief.userId !== this.kit.owner.userId || belief.state !== 'revoked') continue;
      ledger.expect(
        'a told revoked grant is no connection',
        !listed.has(belief.id),
        () => `grant ${belief.id} told revoked is listed`,
        [...belief.requestIds, ...list.requestIds],
      );
    }
    return 'ok';
  }

  // ---------------------------------------------------------------------------------------------
  // MCP tools.

  /** A read tool with a live grant's token: a result (the application's own, for auth_get_application). */
  async readTool(): Promise<Outcome> {
    const flow = 'mcp.read';
    const held = await this.#grant(flow);
    if (typeof held === 'string') return held;
    const name = this.kit.pick(READ_TOOLS)!;
    const user = this.kit.managedUser();
    if (name === 'auth_get_user' && !user) return 'skipped';
    const args: Record<string, unknown> =
      name === 'auth_get_user'
        ? { userId: user!.id }
        : name === 'auth_search'
          ? { q: 'user-' }
          : name === 'auth_list_users' || name === 'auth_list_organizations'
            ? { limit: 5 }
            : {};
    const answer = await this.#mcp(flow, held.access, 'tools/call', { name, arguments: args });
    const told = toolAnswer(answer);
    if (told.kind === 'ambiguous') return 'ambiguous';
    const ok =
      told.kind === 'result' &&
      (name !== 'auth_get_application' || told.value.id === this.kit.application.id) &&
      (name !== 'auth_get_user' || told.value.id === user!.id);
    this.kit.ledger.expect(
      'a token told issued works at the MCP endpoint until told revoked',
      ok,
      () => `${name} with a live grant's token answered ${answer.status} ${answer.text.slice(0, 160)}`,
      [...held.belief.requestIds, ...answer.requestIds],
    );
    return ok ? 'ok' : 'refused';
  }

  /**
   * `auth_revoke_user_sessions` (docs/mcp.md): every session of a user ends, and a revocation that
   * ended some has its audit entry. It may be sent again (a second finds none live).
   */
  async revokeTool(): Promise<Outcome> {
    const flow = 'mcp.revokeSessions';
    const user = this.kit.managedUser();
    if (!user) return 'skipped';
    const held = await this.#grant(flow);
    if (typeof held === 'string') return held;
    const agent = `chaos/${this.kit.id}/mcp/${this.kit.serial()}`;
    const tool = { name: 'auth_revoke_user_sessions', arguments: { userId: user.id } };
    const sessionsOf = (session: { userId: string }) => session.userId === user.id;
    const done = (answer: Answer, value: Record<string, unknown>) => {
      this.kit.ended(sessionsOf, 'ended');
      if (Number(value.count) > 0)
        this.kit.ledger.sessionsRevoked.set(agent, {
          userId: user.id,
          applicationId: this.kit.application.id,
          requestIds: answer.requestIds,
        });
    };
    let answer = await this.#mcp(flow, held.access, 'tools/call', tool, agent);
    let told = toolAnswer(answer);
    if (told.kind === 'ambiguous') {
      this.kit.ended(sessionsOf, 'unknown');
      for (let tries = 0; told.kind === 'ambiguous' && tries < RESENDS; tries++) {
        await sleep(100 * (tries + 1));
        answer = await this.#mcp(flow, held.access, 'tools/call', tool, agent);
        told = toolAnswer(answer);
      }
      this.kit.ledger.pass('a retry answers as the first success');
    }
    if (told.kind === 'result') {
      done(answer, told.value);
      return 'ok';
    }
    if (told.kind === 'ambiguous') return 'ambiguous';
    this.kit.ledger.violate(
      'a token told issued works at the MCP endpoint until told revoked',
      `auth_revoke_user_sessions with a live grant's token answered ${answer.status} ${answer.text.slice(0, 160)}`,
      [...held.belief.requestIds, ...answer.requestIds],
    );
    return 'refused';
  }

  // ---------------------------------------------------------------------------------------------
  // The sign-in bridge and the recent accounts.

  /**
   * A browser without a session authorizes: the bridge's email page, its code, its verify (a new
   * platform account), back to authorize, where an account without a role on the application is
   * shown a page, never redirected (docs/oauth.md, Authorization request). The browser keeps its
   * recent accounts, not the session.
   */
  async bridge(): Promise<Outcome> {
    const flow = 'oauth.bridge';
    const { ledger } = this.kit;
    const email = `bridge-${this.kit.id}-${this.kit.serial()}-${Date.now()}@chaos.test`;
    const opened = await this.#bridgePage(flow);
    if (typeof opened === 'string') return opened;
    const { requestId, page } = opened;
    if (
      !ledger.expect(
        'the sign-in bridge shows its email form',
        page.status === 200 && /action="\/oauth\/login"/.test(page.text),
        () => `the bridge page answered ${page.status}`,
        page.requestIds,
      )
    )
      return 'refused';
    this.kit.inbox.take(email);
    const started = await this.#postFromPage(flow, 'oauthSignInStart', { request: requestId, email });
    if (isAmbiguous(started)) return 'ambiguous';
    const code = started.status === 200 ? this.kit.inbox.take(email) : undefined;
    if (
      !ledger.expect(
        'start mails its code',
        code !== undefined,
        () => `bridge start answered ${started.status}`,
        started.requestIds,
      )
    )
      return 'refused';
    const verified = await this.#postFromPage(flow, 'oauthSignInVerify', {
      request: requestId,
      email,
      code: code!,
    });
    if (isAmbiguous(verified)) return 'ambiguous';
    if (
      !ledger.expect(
        "the bridge's verify of the emailed code signs in",
        verified.status === 303,
        () => `bridge verify answered ${verified.status}`,
        verified.requestIds,
      )
    )
      return 'refused';
    ledger.accept(`platform#${email}#${code}`, verified.requestIds);
    this.#browser.keep(verified);
    const session = this.#browser.cookies.get(this.#sessionCookie);
    this.#browser.cookies.delete(this.#sessionCookie);
    const location = new URL(String(verified.headers.location));
    const back = await this.kit.call(
      flow,
      'oauthAuthorize',
      {},
      {
        query: location.search.slice(1),
        headers: session ? { cookie: `${this.#sessionCookie}=${session}` } : {},
      },
    );
    if (isAmbiguous(back)) return 'ambiguous';
    ledger.expect(
      'an account without a role is shown a page, never redirected',
      back.status === 400,
      () => `authorize for an account without a role answered ${back.status} ${back.headers.location ?? ''}`,
      back.requestIds,
    );
    return 'ok';
  }

  /**
   * A pending request of the bridge (`GET /oauth/authorize` without a session redirects to it) and its
   * sign-in page, as this browser opens it; else the outcome that ended the flow.
   */
  async #bridgePage(flow: string): Promise<{ requestId: string; page: Answer } | Outcome> {
    const challenge = createHash('sha256').update(randomBytes(32).toString('base64url')).digest('base64url');
    const query = this.#authorizeQuery(challenge, `st-${this.kit.serial()}`);
    const first = await sendUntilTold(() => this.kit.call(flow, 'oauthAuthorize', {}, { query }));
    if (isAmbiguous(first)) return 'ambiguous';
    const requestId =
      first.status === 302
        ? (new URL(String(first.headers.location)).searchParams.get('request') ?? undefined)
        : undefined;
    if (
      !this.kit.ledger.expect(
        'an authorization without a session leads to the sign-in bridge',
        requestId !== undefined,
        () => `authorize without a session answered ${first.status} ${first.headers.location ?? ''}`,
        first.requestIds,
      ) ||
      requestId === undefined
    )
      return 'refused';
    const page = await this.kit.call(
      flow,
      'oauthSignInPage',
      {},
      { query: `request=${encodeURIComponent(requestId)}`, headers: this.#browser.header() },
    );
    return isAmbiguous(page) ? 'ambiguous' : { requestId, page };
  }

  /**
   * The browser's recent accounts (docs/api.md, Recent accounts): listed, shown on the bridge's
   * email page, one forgotten from that page or by the API, or all.
   */
  async recentAccounts(): Promise<Outcome> {
    const flow = 'recentAccounts';
    if (this.#browser.cookies.size === 0) {
      const signedIn = await this.bridge();
      if (signedIn !== 'ok') return signedIn;
    }
    const list = await this.kit.call(flow, 'listRecentAccounts', {}, { headers: this.#browser.header() });
    if (isAmbiguous(list)) return 'ambiguous';
    if (list.status !== 200) return 'refused';
    this.#browser.keep(list);
    const items = list.body.items as Array<{ userId: string }>;
    const account = this.kit.pick(items);
    if (!account) return 'ok';
    const way = this.kit.random();
    const ownPage = { origin: new URL(this.kit.issuer).origin, ...this.#browser.header() };
    let answer: Answer;
    if (way < 0.4) {
      const opened = await this.#bridgePage(flow);
      if (typeof opened === 'string') return opened;
      const { requestId } = opened;
      answer = await this.#postFromPage(flow, 'oauthSignInForget', {
        request: requestId,
        account: account.userId,
      });
    } else if (way < 0.85) {
      answer = await this.kit.call(
        flow,
        'forgetRecentAccount',
        { userId: account.userId },
        { headers: ownPage },
      );
    } else {
      answer = await this.kit.call(flow, 'forgetRecentAccounts', {}, { headers: ownPage });
    }
    if (isAmbiguous(answer)) return 'ambiguous';
    this.#browser.keep(answer);
    return answer.status < 400 ? 'ok' : 'refused';
  }
}
