import { type BrowserGlobals, browserGlobals, type WebLocks } from './browser.ts';
import { DoorcodeError, errorFromAnswer } from './errors.ts';
import { type PollOptions, pollUntilApproved } from './poll.ts';
import { type ChangeListener, SessionStore } from './session-store.ts';
import {
  landingOf,
  newPendingSocial,
  SOCIAL_KEY,
  type SocialSignInInput,
  socialStartUrl,
  takePendingSocial,
} from './social.ts';
import type {
  Application,
  Connection,
  List,
  Revoked,
  SessionInfo,
  SessionSummary,
  SignInResult,
  StartResult,
  User,
} from './types.ts';

export interface ClientOptions {
  /** The service's base URL, such as `https://auth.example.com`. */
  baseUrl: string;
  /** The application's public key (`pu_…`): it belongs in browser code. Never a secret key. */
  publicKey: string;
}

/** The Web Lock that makes refresh single-flight across the tabs of an origin. */
export const REFRESH_LOCK = 'auth:refresh';

/**
 * How long a tab gives another tab's new token (or sign-out) to reach its local storage before it
 * acts on the token it reads: after waiting for another holder of the refresh lock, and before it
 * treats a 401 as a revoked session. The wait ends as soon as the change arrives (a `storage`
 * event, or this tab's own write).
 */
export const CATCH_UP_MS = 1000;

const busy = Symbol('busy');

/**
 * Runs `work` under the refresh lock. `waited` is true when another holder had the lock first: then
 * another tab may have refreshed, and its token may not have reached this tab's storage yet.
 */
async function underRefreshLock<T>(locks: WebLocks, work: (waited: boolean) => Promise<T>): Promise<T> {
  const now = await locks.request<T | typeof busy>(REFRESH_LOCK, { ifAvailable: true }, (lock) =>
    lock ? work(false) : Promise.resolve(busy),
  );
  return now === busy ? locks.request(REFRESH_LOCK, () => work(true)) : (now as T);
}

/** A client of one application. Every method is documented in docs/sdk.md. */
export interface DoorcodeClient {
  /** Emails a sign-in code to `email` (`POST /auth/code/start`). */
  start(input: { email: string; name?: string }): Promise<StartResult>;
  /** Exchanges the emailed code for a session and stores its token (`POST /auth/code/verify`). */
  verify(input: { email: string; code: string }): Promise<SignInResult>;
  /** Approves a code a headless device is polling for; no session here (`POST /auth/code/approve`). */
  approve(input: { email: string; code: string }): Promise<{ approved: true }>;
  /** Polls until the code is approved, then stores the session (`POST /auth/code/poll`). */
  poll(options: PollOptions): Promise<SignInResult>;
  /**
   * Starts a social sign-in in this tab and resolves to the URL to send the browser to
   * (`GET /auth/social/{applicationId}/{provider}`): a navigation, not a call. Keeps a new PKCE
   * verifier and the `state` (random unless given) in `sessionStorage['auth:social']`, replacing any
   * earlier start of this tab, and puts the verifier's S256 `code_challenge` on the URL. The browser
   * comes back to `returnTo` with a one-time `code` that only this tab's verifier can exchange.
   */
  startSocialSignIn(input: SocialSignInInput): Promise<string>;
  /**
   * Exchanges the one-time `code` a social sign-in put on the return URL for a session and stores its
   * token (`POST /auth/social/exchange` with this tab's verifier). Reads `url`, by default the page's
   * address, whose `code` and `state` it removes at once (`history.replaceState`) so a reload never
   * sends a used code; the tab's pending sign-in is taken at once too (single use). Null when the URL
   * carries no `code`. Rejects with `DoorcodeError` 400 `STATE_MISMATCH`, sending nothing, when this
   * tab started no social sign-in or the URL's `state` is not the one it started with.
   */
  completeSocialSignIn(input?: { url?: string }): Promise<SignInResult | null>;
  /** The signed-in user and session (`GET /auth/session`), or null without a session. */
  getSession(): Promise<SessionInfo | null>;
  /**
   * A new token for the same session (`POST /auth/refresh`), one tab at a time: a tab that waited for
   * another tab's refresh takes its token instead of refreshing again. Null without a session.
   */
  refresh(): Promise<string | null>;
  /** Ends the user's sessions in this application here and in every tab (`POST /auth/sign-out`). */
  signOut(): Promise<void>;
  listSessions(): Promise<List<SessionSummary>>;
  revokeSession(id: string): Promise<Revoked>;
  revokeOtherSessions(): Promise<Revoked>;
  updateUser(changes: { name?: string; image?: string }): Promise<{ user: User }>;
  listConnections(): Promise<List<Connection>>;
  revokeConnection(id: string): Promise<{ revoked: boolean }>;
  /** The application of the public key: name, logo, branding (`GET /application/by-api-key`). */
  getApplication(): Promise<Application>;
  /** The stored session token, or null. */
  token(): string | null;
  /** Calls `listener` with the token (or null) whenever it changes, in this tab or another. */
  onChange(listener: ChangeListener): () => void;
}

interface Call {
  method: 'GET' | 'POST';
  path: string;
  body?: unknown;
  /** Send `Authorization: Bearer <stored token>`; without a stored token the call fails 401 unsent. */
  session?: boolean;
  /** Send `X-API-Key` (every route but poll reads it). */
  key?: boolean;
  /**
   * After a 401, wait for any refresh (this tab's, or another tab's under the lock) and call again once
   * if it stored a new token. false under the refresh lock (refresh, sign-out: waiting for it would
   * wait for themselves) and for a retried call.
   * Either way a 401 gives another tab's new token `CATCH_UP_MS` to arrive before it clears the session.
   */
  retry?: boolean;
  signal?: AbortSignal | undefined;
}

const notSignedIn = () => new DoorcodeError(401, 'UNAUTHORIZED', 'Not signed in');
const stateMismatch = (message: string) => new DoorcodeError(400, 'STATE_MISMATCH', message);

/** A client for the application whose public key is `publicKey`. */
export function createClient(options: ClientOptions): DoorcodeClient {
  const env: BrowserGlobals = browserGlobals();
  const base = options.baseUrl.replace(/\/+$/, '');
  const store = new SessionStore(env);
  /** This tab's refresh in flight, with or without Web Locks. */
  let refreshing: Promise<string | null> | undefined;

  /**
   * Resolves once no refresh is running: this tab's, then (Web Locks) any other tab's. A call that
   * carried the old token may be refused after the service rotated it but before the new token is
   * stored; it must not sign the user out for that.
   */
  async function refreshSettled(): Promise<void> {
    await refreshing?.catch(() => undefined);
    const locks = env.navigator?.locks;
    if (locks) await locks.request(REFRESH_LOCK, async () => undefined);
  }

  async function call<T>(spec: Call): Promise<T> {
    const token = spec.session ? store.token() : null;
    if (spec.session && !token) throw notSignedIn();
    const headers: Record<string, string> = {};
    if (spec.body !== undefined) headers['content-type'] = 'application/json';
    if (spec.key !== false) headers['x-api-key'] = options.publicKey;
    if (token) headers.authorization = `Bearer ${token}`;
    let response: Response;
    try {
      response = await env.fetch(base + spec.path, {
        method: spec.method,
        headers,
        ...(spec.body === undefined ? {} : { body: JSON.stringify(spec.body) }),
        ...(spec.signal ? { signal: spec.signal } : {}),
      });
    } catch (error) {
      if (spec.signal?.aborted) throw spec.signal.reason;
      throw new DoorcodeError(0, 'NETWORK_ERROR', 'The service could not be reached', {}, error);
    }
    const body = await readJson(response);
    if (response.ok) return body as T;
    if (response.status === 401 && token) {
      if (spec.retry !== false) await refreshSettled();
      const now = await store.changeFrom(token, CATCH_UP_MS);
      if (now && now !== token && spec.retry !== false) return call({ ...spec, retry: false });
      if (now === token) store.refused(token);
    }
    throw errorFromAnswer(response.status, body, response.headers.get('retry-after'));
  }

  const signedIn = (result: SignInResult): SignInResult => {
    store.set(result.token);
    return result;
  };

  async function refreshOnce(before: string, waited: boolean): Promise<string | null> {
    // Re-read under the lock: the tab that held it may have refreshed (or signed out) already, and
    // its token may still be on its way here.
    const current = await store.changeFrom(before, waited ? CATCH_UP_MS : 0);
    if (current !== before) return current;
    try {
      return signedIn(
        await call<SignInResult>({ method: 'POST', path: '/auth/refresh', session: true, retry: false }),
      ).token;
    } catch (error) {
      // The 401 cleared the session unless another tab stored a new token meanwhile.
      if (error instanceof DoorcodeError && error.status === 401) return store.token();
      throw error;
    }
  }

  /** Keeps `refresh` as this tab's refresh in flight until it (the latest one) settles. */
  function tracked(refresh: Promise<string | null>): Promise<string | null> {
    const settled = refresh.finally(() => {
      if (refreshing === settled) refreshing = undefined;
    });
    refreshing = settled;
    return settled;
  }

  return {
    start: (input) => call({ method: 'POST', path: '/auth/code/start', body: input }),
    verify: async (input) => signedIn(await call({ method: 'POST', path: '/auth/code/verify', body: input })),
    approve: (input) => call({ method: 'POST', path: '/auth/code/approve', body: input }),
    poll: async (pollOptions) =>
      signedIn(
        await pollUntilApproved(
          (deviceCode, signal) =>
            call<SignInResult>({
              method: 'POST',
              path: '/auth/code/poll',
              body: { deviceCode },
              key: false,
              signal,
            }),
          pollOptions,
        ),
      ),
    startSocialSignIn: async (input) => {
      const { pending, challenge } = await newPendingSocial(env.crypto, input.state);
      env.sessionStorage.setItem(SOCIAL_KEY, JSON.stringify(pending));
      return socialStartUrl(base, { ...input, state: pending.state }, challenge);
    },
    completeSocialSignIn: async ({ url } = {}) => {
      const page = env.location?.href;
      const href = url ?? page;
      const landing = href === undefined ? null : landingOf(href, page);
      if (!landing) return null;
      // Before anything can fail or wait: a reload, or a second call (React's StrictMode runs an
      // effect twice), then finds no code, and no verifier, instead of spending a used one.
      if (url === undefined) env.history?.replaceState(env.history.state, '', landing.clean);
      const pending = takePendingSocial(env.sessionStorage);
      // A code this tab did not ask for (login CSRF: a link to someone else's code) is not sent.
      if (!pending) throw stateMismatch('No social sign-in was started in this tab');
      if (landing.state !== pending.state)
        throw stateMismatch('This sign-in came back with another state than this tab started with');
      return signedIn(
        await call({
          method: 'POST',
          path: '/auth/social/exchange',
          body: { code: landing.code, code_verifier: pending.verifier },
        }),
      );
    },
    getSession: async () => {
      if (!store.token()) return null;
      try {
        const info = await call<Partial<SessionInfo>>({
          method: 'GET',
          path: '/auth/session',
          session: true,
        });
        return info.user && info.session ? (info as SessionInfo) : null;
      } catch (error) {
        if (error instanceof DoorcodeError && error.status === 401) return null;
        throw error;
      }
    },
    refresh: () => {
      const before = store.token();
      if (!before) return Promise.resolve(null);
      const locks = env.navigator?.locks;
      if (locks) return tracked(underRefreshLock(locks, (waited) => refreshOnce(before, waited)));
      // No Web Locks (an insecure page, an old browser): single-flight within this tab only.
      return refreshing ?? tracked(refreshOnce(before, false));
    },
    signOut: async () => {
      const before = store.token();
      try {
        if (!before) return;
        // The service answers sign-out 200 for any token, a rotated one too (ending nothing), so the
        // token sent must be the live one: under the refresh lock, as a refresh reads it, no tab
        // rotates it meanwhile, and a tab's refresh that just ended has its token read here first.
        const end = async (waited: boolean) => {
          if ((await store.changeFrom(before, waited ? CATCH_UP_MS : 0)) === null) return;
          await call({ method: 'POST', path: '/auth/sign-out', session: true, retry: false });
        };
        const locks = env.navigator?.locks;
        if (locks) await underRefreshLock(locks, end);
        else {
          // No Web Locks: only this tab's own refresh can be waited for.
          await refreshing?.catch(() => undefined);
          await end(false);
        }
      } finally {
        store.clear();
      }
    },
    listSessions: () => call({ method: 'GET', path: '/auth/list-sessions', session: true }),
    revokeSession: (id) =>
      call({ method: 'POST', path: '/auth/revoke-session-by-id', body: { id }, session: true }),
    revokeOtherSessions: () => call({ method: 'POST', path: '/auth/revoke-other-sessions', session: true }),
    updateUser: (changes) =>
      call({ method: 'POST', path: '/auth/update-user', body: changes, session: true }),
    listConnections: () => call({ method: 'GET', path: '/auth/list-connections', session: true }),
    revokeConnection: (id) =>
      call({ method: 'POST', path: '/auth/revoke-connection', body: { id }, session: true }),
    getApplication: () => call({ method: 'GET', path: '/application/by-api-key' }),
    token: () => store.token(),
    onChange: (listener) => store.onChange(listener),
  };
}

/** The parsed JSON body, or undefined for an empty or non-JSON one (API Gateway, a proxy). */
async function readJson(response: Response): Promise<unknown> {
  const text = await response.text();
  if (!text) return undefined;
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}
