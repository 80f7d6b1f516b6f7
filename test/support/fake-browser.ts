import { vi } from 'vitest';
import type { WebLocks } from '../../sdk/src/browser.ts';
import { createClient, type DoorcodeClient } from '../../sdk/src/index.ts';

/**
 * The SDK's environment for unit tests: one origin's local storage (with `storage` events to the
 * other tabs, as browsers send them), Web Locks shared by its tabs, and per tab a window, an address
 * bar and a scripted `fetch`. Not our service: the answers are whatever a test scripts, unless the
 * service is given the real local server to send the unscripted requests to.
 */

/** Node's own `fetch`, taken before any test stubs the global. */
const networkFetch = globalThis.fetch;

export interface SentRequest {
  method: string;
  path: string;
  headers: Record<string, string>;
  body: unknown;
  /** `Date.now()` when it was sent (a test's fake clock). */
  at: number;
}

export interface ScriptedAnswer {
  /** 0: no answer at all (`fetch` rejects, as it does when the network fails). */
  status: number;
  body?: unknown;
  headers?: Record<string, string>;
}

/**
 * Answers `METHOD /path` from a queue per route (the last answer repeats); records every request.
 * With `upstream` (a local server's URL), a request with no scripted answer goes there, really.
 */
export class FakeService {
  readonly sent: SentRequest[] = [];
  private readonly upstream: string | undefined;

  constructor(upstream?: string) {
    this.upstream = upstream;
  }

  private readonly answers = new Map<string, ScriptedAnswer[]>();
  /** When set, a request waits for it before answering (to hold one in flight). */
  gate: Promise<void> | undefined;

  private readonly holds = new Map<string, Promise<void>>();

  /** Holds the answers of `route` (sent, unanswered) until the returned release is called. */
  hold(route: string): () => void {
    let release = () => {};
    this.holds.set(
      route,
      new Promise<void>((resolve) => {
        release = resolve;
      }),
    );
    return () => {
      this.holds.delete(route);
      release();
    };
  }

  answer(route: string, ...answers: ScriptedAnswer[]): this {
    this.answers.set(route, answers);
    return this;
  }

  count(route: string): number {
    return this.sent.filter((request) => `${request.method} ${request.path}` === route).length;
  }

  readonly fetch = async (url: string | URL, init: RequestInit = {}): Promise<Response> => {
    const { pathname, search } = new URL(url);
    const method = init.method ?? 'GET';
    this.sent.push({
      method,
      path: pathname,
      headers: Object.fromEntries(new Headers(init.headers).entries()),
      body: typeof init.body === 'string' ? JSON.parse(init.body) : undefined,
      at: Date.now(),
    });
    if (this.gate) await this.gate;
    await this.holds.get(`${method} ${pathname}`);
    init.signal?.throwIfAborted();
    const queue = this.answers.get(`${method} ${pathname}`);
    if (!queue && this.upstream) return networkFetch(this.upstream + pathname + search, init);
    const next = queue && queue.length > 1 ? queue.shift() : queue?.[0];
    if (!next) throw new Error(`no answer scripted for ${method} ${pathname}`);
    if (next.status === 0) throw new TypeError('Failed to fetch');
    const text = next.body === undefined ? null : JSON.stringify(next.body);
    return new Response(text, {
      status: next.status,
      headers: { 'content-type': 'application/json', ...next.headers },
    });
  };
}

/** Web Locks: one holder per name at a time, the others queued in request order. */
class FakeLocks implements WebLocks {
  private readonly tails = new Map<string, Promise<unknown>>();
  private readonly held = new Set<string>();

  // Both forms of the interface (the overloads are WebLocks's), in one body.
  readonly request = (<T>(
    name: string,
    second: { ifAvailable: true } | (() => Promise<T>),
    third?: (lock: object | null) => Promise<T>,
  ): Promise<T> => {
    const callback = typeof second === 'function' ? second : (third as (lock: object | null) => Promise<T>);
    // As a browser does, the callback runs later (a task), never inside `request`.
    if (this.held.has(name) && typeof second !== 'function')
      return Promise.resolve().then(() => callback(null));
    this.held.add(name);
    const held = (this.tails.get(name) ?? Promise.resolve()).then(() => callback({ name }));
    // Free as soon as the callback settles (unless another request is queued behind it).
    let released: Promise<void> | undefined;
    const free = () => {
      if (this.tails.get(name) === released) this.held.delete(name);
    };
    released = held.then(free, free);
    this.tails.set(name, released);
    return held;
  }) as WebLocks['request'];
}

export interface FakeTab {
  window: EventTarget;
  /** The address bar: `href` is what the page shows; `replaceState` rewrites it as a browser does. */
  location: { href: string };
  history: { state: unknown; replaceState(data: unknown, unused: string, url: string): void };
  /** This tab's `sessionStorage` (its own, not the origin's). */
  sessionStorage: Map<string, string>;
  service: FakeService;
  client: DoorcodeClient;
  /** The `window` events of `type` this tab saw. */
  events(type: string): Event[];
}

export interface TabOptions {
  /** The page's address (default `https://notes.acme.test/`). */
  url?: string;
  /** The page's `history.state` (a router's, say). */
  historyState?: unknown;
  /** The application's public key the client is created with (default `pu_test`). */
  publicKey?: string;
  /** The tab's `sessionStorage` from an earlier page (a navigation in the same tab keeps it). */
  sessionStorage?: Map<string, string>;
}

export interface FakeOriginOptions {
  /** false: a browser without `navigator.locks`. */
  locks?: boolean;
  /**
   * true: each tab reads its own copy of local storage (taken when it opens: set `storage` before),
   * and another tab's write reaches it (with its `storage` event) only when the test calls
   * `deliver()`, as a browser carries it on its own channel, later than a Web Lock's release. A
   * delivered write never overwrites the tab's own later write of the key. Default: every tab reads
   * the one storage at once.
   */
  lag?: boolean;
}

/** The tabs of one origin in one browser profile. */
export class FakeOrigin {
  /** The origin's local storage as the browser holds it (every write, delivered or not). */
  readonly storage = new Map<string, string>();
  private readonly tabs: { window: EventTarget; view: Map<string, string>; wrote: Map<string, number> }[] =
    [];
  /** Numbers the writes, so a late delivery can tell an older write from a tab's own newer one. */
  private writes = 0;
  private readonly locks: FakeLocks | undefined;
  private readonly lag: boolean;
  /** Writes not yet delivered to the other tabs (lag). */
  private undelivered: (() => void)[] = [];

  constructor(options: FakeOriginOptions = {}) {
    this.locks = options.locks === false ? undefined : new FakeLocks();
    this.lag = options.lag === true;
  }

  /** Brings the other tabs every write so far, each with its `storage` event (lag). */
  deliver(): void {
    const writes = this.undelivered;
    this.undelivered = [];
    for (const write of writes) write();
  }

  /**
   * A tab whose SDK client was created against this tab's globals (the client reads them once,
   * when created), calling `service`.
   */
  openTab(service = new FakeService(), page: TabOptions = {}): FakeTab {
    const window = new EventTarget();
    const location = { href: page.url ?? 'https://notes.acme.test/' };
    const history: FakeTab['history'] = {
      state: page.historyState ?? null,
      replaceState(data: unknown, _unused: string, url: string) {
        history.state = data;
        location.href = new URL(url, location.href).href;
      },
    };
    const seen: Event[] = [];
    const record = (event: Event) => seen.push(event);
    for (const type of ['auth:session-revoked', 'storage']) window.addEventListener(type, record);
    const view = this.lag ? new Map(this.storage) : this.storage;
    const localStorage = {
      getItem: (key: string) => view.get(key) ?? null,
      setItem: (key: string, value: string) => this.write(window, key, value),
      removeItem: (key: string) => this.write(window, key, null),
    };
    const session = page.sessionStorage ?? new Map<string, string>();
    const sessionStorage = {
      getItem: (key: string) => session.get(key) ?? null,
      setItem: (key: string, value: string) => void session.set(key, value),
      removeItem: (key: string) => void session.delete(key),
    };
    vi.stubGlobal('fetch', service.fetch);
    vi.stubGlobal('localStorage', localStorage);
    vi.stubGlobal('sessionStorage', sessionStorage);
    vi.stubGlobal('navigator', { locks: this.locks });
    vi.stubGlobal('addEventListener', window.addEventListener.bind(window));
    vi.stubGlobal('removeEventListener', window.removeEventListener.bind(window));
    vi.stubGlobal('dispatchEvent', window.dispatchEvent.bind(window));
    vi.stubGlobal('location', location);
    vi.stubGlobal('history', history);
    const client = createClient({
      baseUrl: 'https://auth.example.test/',
      publicKey: page.publicKey ?? 'pu_test',
    });
    const tab = {
      window,
      location,
      history,
      sessionStorage: session,
      service,
      client,
      events: (type: string) => seen.filter((e) => e.type === type),
    };
    this.tabs.push({ window, view, wrote: new Map() });
    return tab;
  }

  /**
   * HTML storage: a change fires `storage` in every other tab of the origin, later (a task), or with
   * lag when the test delivers it (and only then does that tab read the new value).
   */
  private write(writer: EventTarget, key: string, value: string | null): void {
    const own = this.tabs.find((tab) => tab.window === writer);
    if (!own) throw new Error('a write from a tab this origin did not open');
    if ((own.view.get(key) ?? null) === value) return;
    const number = ++this.writes;
    own.wrote.set(key, number);
    for (const map of new Set([this.storage, own.view])) {
      if (value === null) map.delete(key);
      else map.set(key, value);
    }
    for (const tab of this.tabs) {
      if (tab === own) continue;
      const event = Object.assign(new Event('storage'), { key, newValue: value });
      if (!this.lag) {
        queueMicrotask(() => tab.window.dispatchEvent(event));
        continue;
      }
      this.undelivered.push(() => {
        if ((tab.wrote.get(key) ?? 0) > number) return;
        if (value === null) tab.view.delete(key);
        else tab.view.set(key, value);
        tab.window.dispatchEvent(event);
      });
    }
  }
}

/** A SignInResult as the service answers verify, poll and refresh. */
export function signInResult(token: string) {
  return {
    token,
    user: {
      id: 'usr_1',
      email: 'ada@example.test',
      name: null,
      image: null,
      emailVerified: true,
      createdAt: '2026-11-23T00:00:00.000Z',
    },
    session: {
      id: 'ses_1',
      applicationId: 'app_1',
      createdAt: '2026-11-23T00:00:00.000Z',
      expiresAt: '2026-11-30T00:00:00.000Z',
    },
  };
}

/** The service's error envelope. */
export const envelope = (code: string, details?: Record<string, unknown>) => ({
  error: { code, message: `${code} (scripted)`, ...(details ? { details } : {}) },
});
