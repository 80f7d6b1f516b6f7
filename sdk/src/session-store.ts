import type { BrowserGlobals, StorageChange } from './browser.ts';

/** The token lives in local storage under this key; other tabs watch it (docs/sdk.md, "Storage keys and events"). */
export const TOKEN_KEY = 'auth:token';
/** Written (a timestamp) on every sign-out, so other tabs hear of it even when no token was stored. */
export const LOGOUT_KEY = 'auth:logout';
/** Dispatched on `window` when the service refused the stored token (401): the page is signed out. */
export const SESSION_REVOKED_EVENT = 'auth:session-revoked';

/** A `storage` event that may have changed the session: its keys, or null (all of storage was cleared). */
const isSessionKey = (key: string | null) => key === TOKEN_KEY || key === LOGOUT_KEY || key === null;

export type ChangeListener = (token: string | null) => void;

/**
 * The stored token and its listeners. Local storage is the one copy (never a variable), so every tab
 * reads the token the origin holds, once another tab's write has reached it (`changeFrom`); `onChange`
 * hears this tab's changes and, through `storage` events, other tabs'.
 */
export class SessionStore {
  private readonly listeners = new Set<ChangeListener>();
  private last: string | null;
  private readonly env: BrowserGlobals;

  constructor(env: BrowserGlobals) {
    this.env = env;
    this.last = this.token();
  }

  token(): string | null {
    return this.env.localStorage.getItem(TOKEN_KEY);
  }

  set(token: string): void {
    this.env.localStorage.setItem(TOKEN_KEY, token);
    this.notify();
  }

  /** Ends the session in this tab and, by the storage keys, in every other tab of this origin. */
  clear(): void {
    this.env.localStorage.removeItem(TOKEN_KEY);
    this.env.localStorage.setItem(LOGOUT_KEY, String(Date.now()));
    this.notify();
  }

  /**
   * The service refused `carried`. Clears only when it is still the stored token: another tab may
   * have refreshed (or signed in again) while the call was in flight. True when it cleared.
   */
  refused(carried: string): boolean {
    if (this.token() !== carried) return false;
    this.clear();
    this.env.dispatchEvent(new CustomEvent(SESSION_REVOKED_EVENT));
    return true;
  }

  /**
   * The stored token once it is no longer `before`, or whatever is stored after `ms`. Another tab's
   * write reaches this tab's local storage later than the Web Lock that tab released (a browser
   * carries the two on separate channels), so a tab that waited for another tab's refresh may still
   * read the old token for a moment; the `storage` event marks the moment the new one has arrived.
   * Without `ms` (0) it is the stored token now.
   */
  changeFrom(before: string, ms: number): Promise<string | null> {
    const now = this.token();
    if (now !== before || ms <= 0) return Promise.resolve(now);
    return new Promise((resolve) => {
      const done = () => {
        clearTimeout(timer);
        stop();
        resolve(this.token());
      };
      const timer = setTimeout(done, ms);
      // This tab's own writes (a sign-out, a sign-in) end the wait as well as another tab's.
      const stop = this.onChange((token) => {
        if (token !== before) done();
      });
    });
  }

  onChange(listener: ChangeListener): () => void {
    if (this.listeners.size === 0) {
      this.last = this.token();
      this.env.addEventListener('storage', this.onStorage);
    }
    this.listeners.add(listener);
    return () => {
      this.listeners.delete(listener);
      if (this.listeners.size === 0) this.env.removeEventListener('storage', this.onStorage);
    };
  }

  // A `storage` event fires in the other tabs of the origin, never in the tab that wrote.
  private readonly onStorage = (event: Event): void => {
    if (isSessionKey((event as unknown as StorageChange).key)) this.notify();
  };

  /** Tells the listeners once per change of the stored token. */
  private notify(): void {
    const token = this.token();
    if (token === this.last) return;
    this.last = token;
    for (const listener of this.listeners) listener(token);
  }
}
