import type { Deps } from '../deps.ts';
import { fail } from '../errors.ts';
import type { ResolvedSession } from '../sessions/resolve.ts';
import { updateProfile } from '../store/accounts.ts';
import { imageChangeOf, imageUrl } from './image.ts';
import type { User } from './user.ts';

export interface ProfileChange {
  name?: string;
  /** A validated image value (UpdateUserBody): an https URL, an image data URL, or '' to remove the photo. */
  image?: string;
}

/**
 * POST /auth/update-user. The profile lives on the user item and, as a copy, on the account
 * (email) item that sign-in reads; an uploaded image is stored apart under the hash of its bytes and
 * the profile keeps its id, so the profile items stay small whatever the photo. One transaction
 * writes them all, so they never disagree.
 */
export async function updateUser(deps: Deps, current: ResolvedSession, change: ProfileChange): Promise<User> {
  const { user } = current;
  const image = change.image === undefined ? undefined : imageChangeOf(change.image);
  const updated = await updateProfile(
    deps.db,
    { userId: user.id, scope: current.session.scope, email: user.email },
    { ...(change.name !== undefined ? { name: change.name } : {}), ...(image ? { image } : {}) },
  );
  if (updated.outcome === 'missing') throw fail('unauthorized', 'The account no longer exists');
  return {
    ...user,
    ...(change.name !== undefined ? { name: change.name } : {}),
    ...(image?.kind === 'removed' ? { image: null } : {}),
    ...(image?.kind === 'linked' ? { image: image.url } : {}),
    ...(image?.kind === 'uploaded' ? { image: imageUrl(deps.config.ISSUER, image.image.id) } : {}),
  };
}
