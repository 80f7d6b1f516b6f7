import { imageUrl } from './image.ts';

/** The public User the API answers. `image` is a URL: one the user gave, or that of a stored image. */
export interface User {
  id: string;
  email: string;
  name: string | null;
  image: string | null;
  emailVerified: boolean;
  createdAt: string;
}

/**
 * The User of a user or account item. An uploaded image is kept as its id and answered as its URL
 * under `issuer` (the service's base URL); a URL the user gave is answered as given.
 */
export function userFromItem(item: Record<string, unknown>, issuer: string): User {
  const imageId = storedImageIdOf(item);
  return {
    id: item.id as string,
    email: item.email as string,
    name: (item.name as string | undefined) ?? null,
    image: imageId ? imageUrl(issuer, imageId) : ((item.image as string | undefined) ?? null),
    emailVerified: item.emailVerified === true,
    createdAt: item.createdAt as string,
  };
}

/**
 * The id of the stored image a user or account item names, or null (no photo, or a URL the user
 * gave): what update-user deletes when the photo changes. Never taken from `image`, which a user may
 * set to any URL, another user's image included.
 */
export const storedImageIdOf = (item: Record<string, unknown>): string | null =>
  (item.imageId as string | undefined) ?? null;
