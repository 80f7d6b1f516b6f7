import type { Deps } from '../deps.ts';
import { fail } from '../errors.ts';
import { type ImpersonationClaims, verifyImpersonationToken } from '../identity/session-token.ts';
import { PLATFORM } from '../store/keys.ts';
import { type ApiKey, noteKeyUse as noteUse } from '../tenancy/api-keys.ts';
import type { Application } from '../tenancy/applications.ts';
import { learnOrigin } from '../tenancy/origin-learning.ts';
import { keyScopeEvenIfRevoked, scopeOf } from '../tenancy/scope.ts';
import {
  impersonationCookieName,
  isPlatformOrigin,
  MAX_SAME_NAME_COOKIES,
  mayChangeStateByCookie,
  readCookies,
  sessionCookieName,
  withoutCookie,
} from './cookies.ts';
import {
  type Credentials,
  heldImpersonations,
  impersonationsToEnd,
  platformCookieSession,
  type ResolvedSession,
  resolveCaller,
  sessionsToEnd,
} from './resolve.ts';

/** No credential was read, or none was presented. */
export interface Anonymous {
  readonly kind: 'anonymous';
}

/** A valid application key (docs/api.md, "API keys"): the caller works in that application. */
export interface KeyHolder {
  readonly kind: 'apiKey';
  readonly key: ApiKey;
}

/** A key and its application, as `GET /auth/session` answers it. */
export interface KeyHolderWithApplication extends KeyHolder {
  readonly application: Application;
}

interface SessionHolder {
  readonly session: ResolvedSession;
  /** False when the client cannot hold the token (it came by cookie, or the Bearer failed). */
  readonly tokenHeld: boolean;
}

/**
 * A session issued without a key (docs/api.md, "Management API"): the only kind that manages the
 * platform.
 */
interface PlatformSession extends SessionHolder {
  readonly kind: 'platformSession';
  readonly key: null;
  readonly application: null;
}

/** An end user's session of an application, with that application's key if one came. */
interface ApplicationSession extends SessionHolder {
  readonly kind: 'applicationSession';
  readonly key: ApiKey | null;
  readonly application: Application;
}

/**
 * Sign-out's caller: every presented session of the target application, none required
 * (docs/security.md, "Session tokens").
 */
interface SigningOut {
  readonly kind: 'signingOut';
  /** The application the key names (even a revoked key), or the platform. */
  readonly scope: string;
  readonly sessions: readonly ResolvedSession[];
  /**
   * Whether the answer may clear the application's cookie: not when a cookie came from where it may
   * not change state, which would sign the browser out while its session stays alive.
   */
  readonly clearsCookie: boolean;
  /**
   * Whether the answer clears the impersonation cookie: one came from where it may change state, and
   * the sign-out ends what it carries (docs/api.md, sign-out).
   */
  readonly clearsImpersonationCookie: boolean;
}

/**
 * `POST /impersonation/{id}/end`'s caller (docs/api.md, Impersonation): every impersonation token presented
 * (Bearer, impersonation cookie), verified locally but not looked up, none required: the route matches them
 * to the record it names and refuses with 403 what does not match, never 401.
 */
interface ImpersonationTokens {
  readonly kind: 'impersonationTokens';
  readonly tokens: readonly ImpersonationClaims[];
  /** An impersonation cookie came and may be acted on: the answer clears it. */
  readonly cookieCame: boolean;
}

export type SessionCaller = PlatformSession | ApplicationSession;

/**
 * The caller each auth mode lets through: one entry per mode of the route table's `AuthMode`
 * (shared/route-spec.ts), which the handler chain passes in.
 */
export interface CallerByMode {
  none: Anonymous;
  'key-optional': Anonymous | KeyHolder;
  'secret-key': KeyHolder;
  session: SessionCaller;
  'session-optional': Anonymous | KeyHolderWithApplication | SessionCaller;
  'sign-out': SigningOut;
  'api-key': KeyHolderWithApplication;
  manage: KeyHolderWithApplication | SessionCaller;
  impersonation: ImpersonationTokens;
  'platform-cookie': Anonymous | PlatformSession;
}

/** An auth mode, as the route table names it. */
type AuthMode = keyof CallerByMode;

const anonymous: Anonymous = { kind: 'anonymous' };

/** The scope a sign-in works in: the key's application, else the platform. */
export const scopeOfCaller = (caller: Anonymous | KeyHolder): string =>
  caller.kind === 'apiKey' ? caller.key.applicationId : PLATFORM;

/** What the chain knows of the request besides its credentials. */
export interface RequestKind {
  /** A request that changes state (any method but GET): a cookie alone may not authorize it cross-site. */
  readonly changesState: boolean;
  /** It starts an impersonation: one that this browser holds must end first (docs/api.md, Impersonation). */
  readonly startsImpersonation?: boolean;
}

/**
 * Resolves the caller the route's auth mode asks for, refusing what the mode forbids (401; 403 for
 * a cookie that may not change state from where the request came). The only place credentials are
 * read: handlers and domain functions receive the typed caller.
 */
export async function callerFor<M extends AuthMode>(
  deps: Deps,
  mode: M,
  credentials: Credentials,
  kind: RequestKind,
): Promise<CallerByMode[M]> {
  return (await resolvers[mode](deps, credentials, kind)) as CallerByMode[M];
}

/**
 * Once the request is authorized, on routes that may write the table: the caller's API key, if
 * any, is noted as used (shared/tenancy/api-keys.ts) and its application's origin learned
 * (shared/tenancy/origin-learning.ts). Never fails the request.
 */
export async function noteKeyUse(
  deps: Deps,
  caller: object,
  request: { origin: string | undefined; ip: string; userAgent: string },
): Promise<void> {
  const key = 'key' in caller ? (caller.key as ApiKey | null) : null;
  if (!key) return;
  await noteUse(deps, key);
  await learnOrigin(deps, key, request);
}

type Resolver<M extends AuthMode> = (
  deps: Deps,
  credentials: Credentials,
  kind: RequestKind,
) => Promise<CallerByMode[M]>;

const resolvers: { [M in AuthMode]: Resolver<M> } = {
  none: async () => anonymous,
  'key-optional': async (deps, { apiKey }) => {
    const { key } = await scopeOf(deps, apiKey);
    return key ? { kind: 'apiKey', key } : anonymous;
  },
  'secret-key': async (deps, { apiKey }) => {
    const { key } = await scopeOf(deps, apiKey);
    if (key?.type !== 'secret') throw fail('unauthorized', 'A secret API key is required');
    return { kind: 'apiKey', key };
  },
  session: async (deps, credentials, kind) => {
    const caller = await resolvers['session-optional'](deps, credentials, kind);
    if (caller.kind === 'anonymous' || caller.kind === 'apiKey') {
      throw fail('unauthorized', 'A session is required');
    }
    return caller;
  },
  'session-optional': async (deps, credentials, kind) => {
    const resolved = await resolveCaller(deps, credentials);
    if (
      resolved.session?.via === 'cookie' &&
      kind.changesState &&
      !mayChangeStateByCookie(deps.config, credentials)
    ) {
      throw fail('forbidden', 'A session cookie may change state only from a platform origin');
    }
    if (resolved.session) {
      const tokenHeld = resolved.session.via === 'bearer' && !resolved.bearerRejected;
      if (resolved.application) {
        return {
          kind: 'applicationSession',
          session: resolved.session,
          key: resolved.key,
          application: resolved.application,
          tokenHeld,
        };
      }
      return { kind: 'platformSession', session: resolved.session, key: null, application: null, tokenHeld };
    }
    if (resolved.key && resolved.application) {
      return { kind: 'apiKey', key: resolved.key, application: resolved.application };
    }
    return anonymous;
  },
  'api-key': async (deps, credentials, kind) => {
    if (credentials.apiKey === undefined) throw fail('unauthorized', 'An API key is required');
    const caller = await resolvers['session-optional'](
      deps,
      { ...credentials, bearer: undefined, cookies: [] },
      kind,
    );
    if (caller.kind !== 'apiKey') throw fail('unauthorized', 'The API key is not valid');
    return caller;
  },
  manage: async (deps, credentials, kind) => {
    // An impersonated session is an end user's, which may manage nothing (docs/api.md, Impersonation):
    // its cookie is passed over, so the support user's own session answers for the console it sits in.
    // Not to start another from a platform page while the browser holds one: the start would set a new
    // cookie over it, and the held one would run on with no cookie left to end it.
    if (kind.startsImpersonation && isPlatformOrigin(deps.config, credentials.origin)) {
      const held = await heldImpersonations(deps, credentials);
      if (held.length > 0)
        throw fail('forbidden', 'End the impersonation this browser holds before starting another');
    }
    const own = {
      ...credentials,
      cookies: withoutCookie(credentials.cookies, impersonationCookieName(deps.config)),
    };
    const caller = await resolvers['session-optional'](deps, own, kind);
    if (caller.kind === 'anonymous') throw fail('unauthorized', 'A session or an API key is required');
    return caller;
  },
  impersonation: async (deps, credentials, kind) => {
    // A cookie from where it may not change state ends nothing (docs/security.md, "What ends access"),
    // and is left in place.
    const byCookie = !kind.changesState || mayChangeStateByCookie(deps.config, credentials);
    const cookies = byCookie
      ? readCookies(credentials.cookies, impersonationCookieName(deps.config)).slice(0, MAX_SAME_NAME_COOKIES)
      : [];
    const presented = [...(credentials.bearer ? [credentials.bearer] : []), ...cookies];
    const verified = await Promise.all(presented.map((token) => verifyImpersonationToken(deps, token)));
    return {
      kind: 'impersonationTokens',
      tokens: verified.filter((claims): claims is ImpersonationClaims => claims !== null),
      cookieCame: cookies.length > 0,
    };
  },
  'sign-out': async (deps, credentials, kind) => {
    const scope = (await keyScopeEvenIfRevoked(deps, credentials.apiKey)) ?? PLATFORM;
    // Sign-out answers 200 always (docs/api.md, "Requests authenticated by the session cookie"): cookies
    // sent from elsewhere end nothing, but are not refused.
    const byCookie = !kind.changesState || mayChangeStateByCookie(deps.config, credentials);
    const presented = byCookie ? credentials : { ...credentials, cookies: [] };
    const clearsCookie =
      byCookie || readCookies(credentials.cookies, sessionCookieName(deps.config, scope)).length === 0;
    // The browser's impersonation ends with it: a support user signing out must not leave one running.
    const impersonations = await impersonationsToEnd(deps, presented, scope);
    const clearsImpersonationCookie =
      readCookies(presented.cookies, impersonationCookieName(deps.config)).length > 0 &&
      !impersonations.othersRunning;
    return {
      kind: 'signingOut',
      scope,
      sessions: [...(await sessionsToEnd(deps, presented, scope)), ...impersonations.sessions],
      clearsCookie,
      clearsImpersonationCookie,
    };
  },
  'platform-cookie': async (deps, credentials, kind) => {
    const session = await platformCookieSession(deps, credentials);
    if (!session) return anonymous;
    if (kind.changesState && !mayChangeStateByCookie(deps.config, credentials)) {
      throw fail('forbidden', 'A session cookie may change state only from a platform origin');
    }
    return { kind: 'platformSession', session, key: null, application: null, tokenHeld: false };
  },
};
