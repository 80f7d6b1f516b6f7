import type { Deps } from '../deps.ts';
import { fail } from '../errors.ts';
import { imageChangeOf, imageUrl } from '../identity/image.ts';
import type { User } from '../identity/user.ts';
import { tooBusy } from '../rate-limit/rate-limit.ts';
import type { ResolvedSession } from '../sessions/resolve.ts';
import { updateProfile } from '../store/accounts.ts';
import type { StoredAuditEntry } from '../store/audit.ts';

export interface ProfileChange {
  name?: string;
  /** A validated image value (UpdateUserBody): an https URL, an image data URL, or '' to remove the photo. */
  image?: string;
}

/** Attempts in all while concurrent changes of the same user keep replacing the stored image first. */
const MAX_PROFILE_RACES = 5;

/**
 * POST /auth/update-user. The profile lives on the user item and, as a copy, on the account
 * (email) item that sign-in reads; an uploaded image is stored apart, under an id of its owner and
 * its bytes, and the profile keeps that id, so the profile items stay small whatever the photo.
 * One transaction writes them all and deletes the image the profile named (docs/api.md,
 * "Profile images": the empty string removes the photo; a replaced one goes too), so each user
 * has at most one stored image.
 * The deletion is conditioned on the profile still naming that image; a change that lost the race
 * learns the image named now and tries again, without another read.
 */
export async function updateUser(deps: Deps, current: ResolvedSession, change: ProfileChange): Promise<User> {
  const { user, imageId, session } = current;
  const updated = await changeProfile(deps, { user, imageId, scope: session.scope }, change);
  if (!updated) throw fail('unauthorized', 'The account no longer exists');
  return updated;
}

/** Whose profile changes: the user as read, the stored image its profile named, its scope. */
export interface ProfileOwner {
  user: User;
  imageId: string | null;
  scope: string;
}

/**
 * The change of update-user, for the user itself or an application's managers (docs/api.md, Users):
 * the new User, or null when the account no longer exists.
 */
export async function changeProfile(
  deps: Deps,
  owner: ProfileOwner,
  change: ProfileChange,
  /** A manager's change: its audit entry, made from the profile before and after (docs/api.md "Audit trail"). */
  auditOf?: (before: User, after: User) => StoredAuditEntry | null,
): Promise<User | null> {
  const { user } = owner;
  const image = change.image === undefined ? undefined : imageChangeOf(change.image, user.id);
  const next: User = {
    ...user,
    ...(change.name !== undefined ? { name: change.name } : {}),
    ...(image?.kind === 'removed' ? { image: null } : {}),
    ...(image?.kind === 'linked' ? { image: image.url } : {}),
    ...(image?.kind === 'uploaded' ? { image: imageUrl(deps.config.ISSUER, image.image.id) } : {}),
  };
  const audit = auditOf?.(user, next) ?? undefined;
  let storedId = owner.imageId;
  for (let attempt = 0; attempt < MAX_PROFILE_RACES; attempt++) {
    const updated = await updateProfile(
      deps.db,
      { userId: user.id, scope: owner.scope, email: user.email },
      {
        ...(change.name !== undefined ? { name: change.name } : {}),
        ...(image ? { image: { change: image, storedId } } : {}),
      },
      audit,
    );
    if (updated.outcome === 'missing') return null;
    // Concurrent writes kept cancelling it (real DynamoDB): nothing was written; come back in a moment.
    if (updated.outcome === 'conflict') throw tooBusy();
    if (updated.outcome === 'raced') {
      storedId = updated.imageId;
      continue;
    }
    return next;
  }
  throw tooBusy();
}
