/**
 * Who is signed in: the platform session the cookie holds, as `GET /auth/session` reads it. The
 * console never holds a token; it asks the service. While an impersonation this browser started runs,
 * the service answers with the impersonated session and names the support user as its actor
 * (docs/api.md "Impersonation"): the console is still the actor's, and shows the impersonation.
 */
import { useEffect, useState } from 'preact/hooks';
import { type Answer, ApiError, call, onSignedOut } from './api.ts';

type SessionInfo = Answer<'session'>;
export type Account = NonNullable<SessionInfo['user']>;

/** A running impersonation: its record as the session names it, and whom it acts as. */
export type Impersonation = NonNullable<SessionInfo['impersonation']> & {
  readonly user: { readonly id: string; readonly email: string };
  readonly applicationId: string;
};

export type SessionState =
  | { readonly state: 'checking' }
  | { readonly state: 'signed-out' }
  /** The service could not say (a 5xx, a 429, no network): not signed out, and said so. */
  | { readonly state: 'unknown'; readonly error: unknown }
  | {
      readonly state: 'signed-in';
      /** The platform account using the console (during an impersonation, its actor). */
      readonly user: { readonly id: string; readonly email: string };
      readonly impersonation: Impersonation | null;
      /** A later check that failed (a 5xx, no network): the console stays as it was and says so. */
      readonly error?: unknown;
    };

let state: SessionState = { state: 'checking' };
const listeners = new Set<(state: SessionState) => void>();
const set = (next: SessionState) => {
  state = next;
  for (const listener of listeners) listener(next);
};

function stateOf(info: SessionInfo): SessionState {
  const { user, session, impersonation } = info;
  if (user && session && impersonation && session.applicationId !== null) {
    return {
      state: 'signed-in',
      user: { id: impersonation.actor.userId, email: impersonation.actor.email },
      impersonation: {
        ...impersonation,
        user: { id: user.id, email: user.email },
        applicationId: session.applicationId,
      },
    };
  }
  if (user && session && session.applicationId === null) {
    return { state: 'signed-in', user: { id: user.id, email: user.email }, impersonation: null };
  }
  return { state: 'signed-out' };
}

/** Asks the service who the cookies name; only a platform account (or its impersonation) signs in the console. */
export async function checkSession(): Promise<SessionState> {
  try {
    set(stateOf(await call('session')));
  } catch (error) {
    // Only a refused credential signs the console out. Any other failure is shown with a retry: in place
    // of the console on the first check, above the screen on a later one (the screen stays as it was).
    if (error instanceof ApiError && error.status === 401) set({ state: 'signed-out' });
    else if (state.state === 'signed-in') set({ ...state, error });
    else set({ state: 'unknown', error });
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

/** The impersonation this browser holds, while it runs. */
export function useImpersonation(): Impersonation | null {
  const session = useSession();
  return session.state === 'signed-in' ? session.impersonation : null;
}
