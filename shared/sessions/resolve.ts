import type { Deps } from '../deps.ts';
import { AppError, fail } from '../errors.ts';
import { verifySessionToken } from '../identity/session-token.ts';
import { storedImageIdOf, type User, userFromRecord } from '../identity/user.ts';
import { accountRead } from '../store/accounts.ts';
import { apiKeyRead } from '../store/api-keys.ts';
import { applicationRead } from '../store/applications.ts';
import { PLATFORM } from '../store/keys.ts';
import { readRecords } from '../store/reads.ts';
import { type SessionRecord, sessionRead } from '../store/sessions.ts';
import { type ApiKey, apiKeyFromRecord, apiKeyHash, resolveApiKey } from '../tenancy/api-keys.ts';
import { type Application, applicationFromRecord, getApplication } from '../tenancy/applications.ts';
import { impersonationCookieName, MAX_SAME_NAME_COOKIES, readCookies, sessionCookieName } from './cookies.ts';

export interface ResolvedSession {
  user: User;
  /** The stored image the profile names (shared/identity/user.ts `storedImageIdOf`), read with the user. */
  imageId: string | null;
  session: SessionRecord;
  token: string;
  /** How the token came: a client that sent it by cookie cannot read it. */
  via: 'bearer' | 'cookie';
}

/** Who is calling: the application key (if any), its application, and the session (if any). */
export interface Caller {
  key: ApiKey | null;
  application: Application | null;
  session: ResolvedSession | null;
  /** A Bearer token was sent but did not resolve to a live session. */
  bearerRejected: boolean;
}

/** The credentials a request presents, as the HTTP layer read them (shared/http/credentials.ts). */
export interface Credentials {
  /** The `Authorization: Bearer` token; undefined without the header, null for a header of another form. */
  readonly bearer: string | null | undefined;
  /** Every `name=value` of the request's cookies. */
  readonly cookies: readonly string[];
  /** The `X-API-Key` header. */
  readonly apiKey: string | undefined;
  /** The `Origin` header: which page sent the request, when a browser sent it. */
  readonly origin: string | undefined;
  /** The `Sec-Fetch-Site` header (Fetch Metadata): how the page relates to this service. */
  readonly fetchSite: string | undefined;
}

/**
 * Reads the token's session, user, application and the presented key in ONE BatchGetItem, after the JWT was
 * verified locally (one DynamoDB call, no KMS call: docs/data-model.md, "Calls per request").
 */
async function lookup(deps: Deps, token: string, presentedKey: string | undefined, knownKey?: ApiKey) {
  const claims = await verifySessionToken(deps, token);
  if (!claims) return null;
  // A key the caller already resolved (cookie path) is not read again.
  const keyHash = presentedKey === undefined || knownKey ? null : apiKeyHash(presentedKey);
  const found = await readRecords(deps.db, {
    session: sessionRead(claims.sub, claims.sid),
    account: accountRead(claims.aud, claims.email),
    application: claims.aud !== PLATFORM ? applicationRead(claims.aud) : undefined,
    apiKey: keyHash ? apiKeyRead(keyHash) : undefined,
  });
  const { session, account, application: appRecord, apiKey: keyRecord } = found;
  if (!session || !account) return null;
  // A disabled user's tokens stop at once (docs/security.md, "What ends access"; the account item is read
  // here anyway).
  if (account.disabledAt !== undefined) return null;
  const user = userFromRecord(account, deps.config.ISSUER);
  if (user.id !== claims.sub) return null;
  // The record must still hold this token's jti (refresh rotates it) and be unexpired (TTL is late).
  if (
    session.jti !== claims.jti ||
    session.scope !== claims.aud ||
    session.expiresAt * 1000 <= deps.clock.now()
  ) {
    return null;
  }
  if (claims.aud !== PLATFORM && !appRecord) return null;
  return {
    session,
    user,
    imageId: storedImageIdOf(account),
    application: appRecord ? applicationFromRecord(appRecord) : null,
    key: knownKey ?? (presentedKey === undefined ? undefined : apiKeyFromRecord(presentedKey, keyRecord)),
  };
}

/** The lookups of one request, by token and key: each token is read once however many rules ask. */
const requestLookups = new WeakMap<Credentials, Map<string, ReturnType<typeof lookup>>>();

/**
 * `lookup`, once per request (`credentials` is the request's): the impersonation cookie's actor rule, the
 * resolution and sign-out may all ask for the same platform cookie or Bearer token, and each answer is
 * one BatchGetItem. A request reads before it writes, so the first answer holds for the request.
 */
function lookupOnce(
  deps: Deps,
  credentials: Credentials,
  token: string,
  presentedKey: string | undefined,
  knownKey?: ApiKey,
): ReturnType<typeof lookup> {
  let seen = requestLookups.get(credentials);
  if (!seen) {
    seen = new Map();
    requestLookups.set(credentials, seen);
  }
  const id = `${token} ${presentedKey ?? ''} ${knownKey?.applicationId ?? ''}`;
  let found = seen.get(id);
  if (!found) {
    found = lookup(deps, token, presentedKey, knownKey);
    seen.set(id, found);
  }
  return found;
}

/**
 * The resolution order (docs/api.md, Impersonation): the impersonation cookie, Bearer, then the session
 * cookie. With a key, the session must belong to the key's application, else 401.
 */
export async function resolveCaller(deps: Deps, credentials: Credentials): Promise<Caller> {
  const presentedKey = credentials.apiKey;
  if (presentedKey !== undefined && !apiKeyHash(presentedKey))
    throw fail('unauthorized', 'The API key is not valid');
  const bearer = credentials.bearer;
  if (bearer === null) throw fail('unauthorized', 'The Authorization header must be `Bearer <token>`');

  const impersonated = await impersonationFromCookie(deps, credentials);
  if (impersonated) return accept(impersonated.found, impersonated.token, 'cookie', presentedKey, false);

  let bearerRejected = false;
  if (bearer !== undefined) {
    const found = await lookupOnce(deps, credentials, bearer, presentedKey);
    if (found) return accept(found, bearer, 'bearer', presentedKey, false);
    bearerRejected = true;
  }

  // Cookies are per application; with a key we know which one to read, without one only the platform's.
  const key = presentedKey === undefined ? null : await resolveApiKey(deps, presentedKey);
  const scope = key?.applicationId ?? PLATFORM;
  const cookieTokens = readCookies(credentials.cookies, sessionCookieName(deps.config, scope));
  if (cookieTokens.length > MAX_SAME_NAME_COOKIES) {
    throw fail('unauthorized', 'Too many session cookies of one name');
  }
  const fromCookie = await cookieSession(
    deps,
    credentials,
    cookieTokens,
    scope,
    presentedKey,
    key ?? undefined,
  );
  if (fromCookie) return accept(fromCookie.found, fromCookie.token, 'cookie', presentedKey, bearerRejected);
  // A token that was presented and does not resolve is an invalid credential, not anonymity.
  if (bearerRejected || cookieTokens.length > 0) throw fail('unauthorized', 'The session token is not valid');
  return {
    key,
    application: key ? await loadApplication(deps, key.applicationId) : null,
    session: null,
    bearerRejected,
  };
}

type Found = NonNullable<Awaited<ReturnType<typeof lookup>>>;

/**
 * A cookie names its application (docs/security.md, "Session tokens"); a token of another scope under that
 * name is no session.
 */
const inScope = (found: Found | null, scope: string): Found | null =>
  found && found.session.scope === scope ? found : null;

/**
 * The session the cookie values name. Every value is looked up: a dead value beside a live one is a stale
 * cookie (another path, a parent domain), but live sessions of two users mean one was planted (a sibling
 * subdomain can set this name, and SameSite=Lax sends it), so neither is chosen (docs/security.md,
 * "Session tokens").
 */
async function cookieSession(
  deps: Deps,
  credentials: Credentials,
  tokens: readonly string[],
  scope: string,
  presentedKey: string | undefined,
  key: ApiKey | undefined,
): Promise<{ found: Found; token: string } | null> {
  const looked = await Promise.all(
    tokens.map(async (token) => ({
      token,
      found: inScope(await lookupOnce(deps, credentials, token, presentedKey, key), scope),
    })),
  );
  const live = looked.filter((entry): entry is { found: Found; token: string } => entry.found !== null);
  if (new Set(live.map((entry) => entry.found.user.id)).size > 1) {
    throw fail('unauthorized', 'Session cookies of different users were sent');
  }
  return live[0] ?? null;
}

/**
 * The platform session of the platform session cookie alone (the OAuth pages, docs/oauth.md), or null:
 * no cookie, too many, dead or invalid ones, or live ones of two users (one was planted)
 * all leave the browser signed out, so the page sends it to sign in instead of answering 401.
 * Neither Bearer, key nor impersonation cookie is read: a browser navigation carries none of them.
 */
export async function platformCookieSession(
  deps: Deps,
  credentials: Credentials,
): Promise<ResolvedSession | null> {
  const tokens = readCookies(credentials.cookies, sessionCookieName(deps.config, PLATFORM));
  if (tokens.length === 0 || tokens.length > MAX_SAME_NAME_COOKIES) return null;
  let first: { found: Found; token: string } | null;
  try {
    first = await cookieSession(deps, credentials, tokens, PLATFORM, undefined, undefined);
  } catch (error) {
    // Live cookies of two users: signed out here, not 401 (the page sends the browser to sign in).
    if (error instanceof AppError && error.kind === 'unauthorized') return null;
    throw error;
  }
  if (!first) return null;
  const { user, imageId, session } = first.found;
  return { user, imageId, session, token: first.token, via: 'cookie' };
}

function accept(
  found: Found,
  token: string,
  via: 'bearer' | 'cookie',
  presentedKey: string | undefined,
  bearerRejected: boolean,
): Caller {
  if (presentedKey !== undefined) {
    if (!found.key) throw fail('unauthorized', 'The API key is not valid');
    if (found.key.applicationId !== found.session.scope) {
      throw fail('unauthorized', 'The session does not belong to this application');
    }
  }
  return {
    key: found.key ?? null,
    application: found.application,
    session: { user: found.user, imageId: found.imageId, session: found.session, token, via },
    bearerRejected,
  };
}

async function loadApplication(deps: Deps, applicationId: string): Promise<Application> {
  const app = await getApplication(deps, applicationId);
  if (!app) throw fail('unauthorized', 'The API key is not valid');
  return app;
}

/**
 * What sign-out ends (the user's sessions in this application: docs/security.md, "Session tokens"): the
 * session of an explicitly sent Bearer token, whatever key comes with it (holding the token proves the right
 * to end it; a revoked or foreign key must not leave it running), and the session of the target scope's
 * cookie only (its first MAX_SAME_NAME_COOKIES values: each costs a read). Cookies of other scopes are sent
 * by the browser on its own and are left alone.
 */
export async function sessionsToEnd(
  deps: Deps,
  credentials: Credentials,
  scope: string,
): Promise<ResolvedSession[]> {
  const bearer = credentials.bearer;
  const cookies = readCookies(credentials.cookies, sessionCookieName(deps.config, scope));
  const tokens = [
    ...(bearer ? [{ token: bearer, via: 'bearer' as const }] : []),
    ...cookies.slice(0, MAX_SAME_NAME_COOKIES).map((token) => ({ token, via: 'cookie' as const })),
  ];
  const sessions: ResolvedSession[] = [];
  for (const { token, via } of tokens) {
    const looked = await lookupOnce(deps, credentials, token, undefined);
    const found = via === 'cookie' ? inScope(looked, scope) : looked;
    if (found)
      sessions.push({ user: found.user, imageId: found.imageId, session: found.session, token, via });
  }
  return sessions;
}

/**
 * What sign-out ends of the impersonation cookie (docs/api.md, sign-out): the browser signs out of
 * the impersonation it holds too, as POST /impersonation/{id}/end would end it. Its first
 * MAX_SAME_NAME_COOKIES values are looked up (each costs a read); a live impersonated session counts
 * when the sign-out is the platform's (the cookie is issued to platform origins) or of the
 * impersonation's own application, and only one the browser holds (`heldImpersonations`' actor rule).
 * `othersRunning`: a live impersonation this sign-out leaves running came (of another application, or
 * not the browser's by the actor rule), so its cookie must stay.
 */
export async function impersonationsToEnd(
  deps: Deps,
  credentials: Credentials,
  scope: string,
): Promise<{ sessions: ResolvedSession[]; othersRunning: boolean }> {
  const tokens = readCookies(credentials.cookies, impersonationCookieName(deps.config)).slice(
    0,
    MAX_SAME_NAME_COOKIES,
  );
  const sessions: ResolvedSession[] = [];
  let othersRunning = false;
  // An impersonation the browser does not hold by the actor rule (planted, left by another account, or
  // its own actor's platform cookie is no longer live) is left running, and its cookie in place, so its
  // own actor finds it again after signing in.
  const holder = tokens.length === 0 ? ({ kind: 'none' } as const) : await platformHolder(deps, credentials);
  for (const token of tokens) {
    const found = await lookupOnce(deps, credentials, token, undefined);
    if (!found?.session.impersonation) continue;
    if (
      holder.kind === 'other' ||
      (holder.kind === 'user' && found.session.impersonation.actorId !== holder.id)
    ) {
      othersRunning = true;
      continue;
    }
    if (scope !== PLATFORM && found.session.scope !== scope) {
      othersRunning = true;
      continue;
    }
    sessions.push({ user: found.user, imageId: found.imageId, session: found.session, token, via: 'cookie' });
  }
  return { sessions, othersRunning };
}

/**
 * Whom the browser's platform session names, for the impersonation cookie's actor rule: its platform
 * cookie's live account, else a platform Bearer token's (`user`); no platform credential at all (`none`:
 * any actor's impersonation may be the browser's own); a platform cookie naming no live account, or
 * more than one (`other`: no impersonation is this browser's own).
 */
async function platformHolder(
  deps: Deps,
  credentials: Credentials,
): Promise<{ kind: 'none' } | { kind: 'user'; id: string } | { kind: 'other' }> {
  if (readCookies(credentials.cookies, sessionCookieName(deps.config, PLATFORM)).length === 0) {
    // No platform cookie: a platform Bearer token without a key names the account instead.
    if (credentials.apiKey !== undefined || !credentials.bearer) return { kind: 'none' };
    const found = await lookupOnce(deps, credentials, credentials.bearer, undefined);
    return found?.session.scope === PLATFORM ? { kind: 'user', id: found.user.id } : { kind: 'none' };
  }
  const own = await platformCookieSession(deps, credentials);
  return own ? { kind: 'user', id: own.user.id } : { kind: 'other' };
}

/**
 * The impersonation cookie's live impersonated sessions that are this browser's own (docs/api.md,
 * Impersonation): with a key only those of the key's application, and beside a platform session cookie
 * only those its account started (one another site planted, or another account left, is not). Its
 * first MAX_SAME_NAME_COOKIES values are looked up; each costs a read.
 */
export async function heldImpersonations(
  deps: Deps,
  credentials: Credentials,
): Promise<Array<{ found: Found; token: string }>> {
  const tokens = readCookies(credentials.cookies, impersonationCookieName(deps.config)).slice(
    0,
    MAX_SAME_NAME_COOKIES,
  );
  if (tokens.length === 0) return [];
  const presentedKey = credentials.apiKey;
  const [looked, holder] = await Promise.all([
    Promise.all(
      tokens.map(async (token) => ({
        token,
        found: await lookupOnce(deps, credentials, token, presentedKey),
      })),
    ),
    platformHolder(deps, credentials),
  ]);
  return looked.filter(
    (entry): entry is { found: Found; token: string } =>
      entry.found !== null &&
      entry.found.session.impersonation !== undefined &&
      (presentedKey === undefined || entry.found.key?.applicationId === entry.found.session.scope) &&
      holder.kind !== 'other' &&
      (holder.kind === 'none' || entry.found.session.impersonation.actorId === holder.id),
  );
}

/**
 * The impersonation cookie comes first (docs/api.md, Impersonation). Only an impersonation the browser
 * holds counts (`heldImpersonations`); anything else under that name (one that ended or lapsed, of
 * another application or another actor) is passed over, not refused: the support user's browser sends
 * it on its own, and its own sessions must keep working. Held impersonations of two users mean one was
 * planted, as for session cookies: refused.
 */
async function impersonationFromCookie(
  deps: Deps,
  credentials: Credentials,
): Promise<{ found: Found; token: string } | null> {
  const tokens = readCookies(credentials.cookies, impersonationCookieName(deps.config));
  if (tokens.length === 0) return null;
  if (tokens.length > MAX_SAME_NAME_COOKIES) throw fail('unauthorized', 'Too many impersonation cookies');
  const held = await heldImpersonations(deps, credentials);
  if (new Set(held.map((entry) => entry.found.user.id)).size > 1) {
    throw fail('unauthorized', 'Impersonation cookies of different users were sent');
  }
  return held[0] ?? null;
}
