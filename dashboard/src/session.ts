/**
 * Who is signed in: the platform session the cookie holds, as `GET /auth/session` reads it. The
 * console never holds a token; it asks the service.
 */
import { useEffect, useState } from 'preact/hooks';
import { type Answer, call, onSignedOut } from './api.ts';

export type SessionInfo = Answer<'session'>;
export type Account = NonNullable<SessionInfo['user']>;

export type SessionState =
  | { readonly state: 'checking' }
  | { readonly state: 'signed-out' }
  | { readonly state: 'signed-in'; readonly user: Account };

let state: SessionState = { state: 'checking' };
const listeners = new Set<(state: SessionState) => void>();
const set = (next: SessionState) => {
  state = next;
  for (const listener of listeners) listener(next);
};

/** Asks the service who the cookie names; only a platform session (no application) signs in the console. */
export async function checkSession(): Promise<SessionState> {
  try {
    const info = await call('session');
    set(
      info.user && info.session && info.session.applicationId === null
        ? { state: 'signed-in', user: info.user }
        : { state: 'signed-out' },
    );
  } catch {
    set({ state: 'signed-out' });
  }
  return state;
}

export const signedOut = () => set({ state: 'signed-out' });
onSignedOut(signedOut);

/** The session state; the component renders again when it changes. */
export function useSession(): SessionState {
  const [current, setCurrent] = useState(state);
  useEffect(() => {
    listeners.add(setCurrent);
    setCurrent(state);
    return () => {
      listeners.delete(setCurrent);
    };
  }, []);
  return current;
}
