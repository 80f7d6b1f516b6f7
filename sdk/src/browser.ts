/**
 * The few browser APIs the client uses, typed here by what it needs so the package compiles without
 * the DOM library and a test can stand in for each (`fetch`, `localStorage`, `navigator.locks`, the
 * window's events, the address bar). Read from `globalThis` when a client is created: `window` in a page.
 */
export interface BrowserGlobals {
  fetch: typeof fetch;
  localStorage: {
    getItem(key: string): string | null;
    setItem(key: string, value: string): void;
    removeItem(key: string): void;
  };
  /** This tab's storage: where a social sign-in keeps its verifier and state until the page comes back. */
  sessionStorage: BrowserGlobals['localStorage'];
  /** Web Crypto: `subtle` is absent in insecure (non-https, non-loopback) pages. */
  crypto: {
    getRandomValues<T extends Uint8Array>(array: T): T;
    subtle?: { digest(algorithm: 'SHA-256', data: Uint8Array): Promise<ArrayBuffer> };
  };
  /** Web Locks: absent in old browsers and in insecure (non-https, non-loopback) pages. */
  navigator?: { locks?: WebLocks };
  addEventListener(type: string, listener: (event: Event) => void): void;
  removeEventListener(type: string, listener: (event: Event) => void): void;
  dispatchEvent(event: Event): boolean;
  /** The page's address (live), where a social sign-in lands; absent outside a page. */
  location?: { readonly href: string };
  /** Rewrites the address without a navigation; absent outside a page. */
  history?: { readonly state: unknown; replaceState(data: unknown, unused: string, url: string): void };
}

/** The two forms of `navigator.locks.request` the client uses. */
export interface WebLocks {
  /** Waits for the lock, then holds it until the callback's promise settles. */
  request<T>(name: string, callback: () => Promise<T>): Promise<T>;
  /** Runs the callback without waiting for the lock: with it, or with null when another holder has it. */
  request<T>(
    name: string,
    options: { ifAvailable: true },
    callback: (lock: object | null) => Promise<T>,
  ): Promise<T>;
}

/** The fields of a `StorageEvent` the client reads. */
export interface StorageChange {
  key: string | null;
  newValue: string | null;
}

/** This page's globals, taken once (a client keeps the ones it was created with). */
export function browserGlobals(): BrowserGlobals {
  const page = globalThis as unknown as BrowserGlobals;
  return {
    // Bound: a browser refuses `fetch` and the event methods called on another object (Illegal invocation).
    fetch: page.fetch.bind(page),
    localStorage: page.localStorage,
    sessionStorage: page.sessionStorage,
    crypto: page.crypto,
    navigator: page.navigator,
    addEventListener: page.addEventListener.bind(page),
    removeEventListener: page.removeEventListener.bind(page),
    dispatchEvent: page.dispatchEvent.bind(page),
    // The objects themselves (not copies): `location.href` must be read when it is needed.
    location: page.location,
    history: page.history,
  };
}
