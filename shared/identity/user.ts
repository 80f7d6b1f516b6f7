import type { UserFields } from '../store/accounts.ts';
import type { ProfileRecord } from '../store/users.ts';
import { imageUrl } from './image.ts';

/** The public User the API answers. `image` is a URL: one the user gave, or that of a stored image. */
export type User = UserFields;

/**
 * The User of a user or account item. An uploaded image is kept as its id and answered as its URL
 * under `issuer` (the service's base URL); a URL the user gave is answered as given.
 */
export function userFromRecord(profile: ProfileRecord, issuer: string): User {
  const imageId = storedImageIdOf(profile);
  return {
    id: profile.id,
    email: profile.email,
    name: profile.name ?? null,
    image: imageId ? imageUrl(issuer, imageId) : (profile.image ?? null),
    emailVerified: profile.emailVerified === true,
    createdAt: profile.createdAt,
  };
}

/**
 * The id of the stored image a user or account item names, or null (no photo, or a URL the user
 * gave): what update-user deletes when the photo changes. Never taken from `image`, which a user may
 * set to any URL, another user's image included.
 */
export const storedImageIdOf = (profile: ProfileRecord): string | null => profile.imageId ?? null;
