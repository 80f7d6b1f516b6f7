import type { AuthMode } from '../routes.ts';
import type { CallerByMode } from '../sessions/caller.ts';

/**
 * The caller resolution of a bundle whose route reads no credential (auth `none`): lib/bundling.ts
 * aliases `#callers` here, so the session and key lookups, and the store behind them, stay out of it.
 * Any other mode means the bundle and the route table disagree.
 */
export async function callerFor<M extends AuthMode>(_deps: unknown, mode: M): Promise<CallerByMode[M]> {
  if (mode !== 'none') throw new Error(`This bundle resolves no credentials, but its route asks for ${mode}`);
  return { kind: 'anonymous' } as CallerByMode[M];
}

/** No credential read, so no key to note. */
export async function noteKeyUse(): Promise<void> {}
