import type { Deps } from '../deps.ts';
import { fail } from '../errors.ts';
import type { ResolvedSession } from '../sessions/resolve.ts';
import { updateProfile } from '../store/accounts.ts';
import type { User } from './user.ts';

export interface ProfileChange {
  name?: string;
  /** Empty string removes the photo (SPEC §2). */
  image?: string;
}

/**
 * POST /auth/update-user. The profile lives on the user item and, as a copy, on the account
 * (email) item that sign-in reads, with the image in parts beside the account; one transaction
 * writes them all, so they never disagree.
 */
export async function updateUser(deps: Deps, current: ResolvedSession, change: ProfileChange): Promise<User> {
  const { user } = current;
  const updated = await updateProfile(
    deps.db,
    { userId: user.id, scope: current.session.scope, email: user.email },
    change,
  );
  if (updated.outcome === 'missing') throw fail('unauthorized', 'The account no longer exists');
  return {
    ...user,
    ...(change.name !== undefined ? { name: change.name } : {}),
    ...(change.image !== undefined ? { image: change.image === '' ? null : change.image } : {}),
  };
}
