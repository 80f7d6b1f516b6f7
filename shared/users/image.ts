import { sha256Hex } from '../crypto/hash.ts';

/** The image types a data URL may carry (shared/users/schemas.ts checks their magic bytes). */
const imageTypes = {
  png: { contentType: 'image/png', extension: 'png' },
  jpeg: { contentType: 'image/jpeg', extension: 'jpg' },
  gif: { contentType: 'image/gif', extension: 'gif' },
  webp: { contentType: 'image/webp', extension: 'webp' },
} as const;
type ImageType = keyof typeof imageTypes;

/**
 * An uploaded image, stored under the SHA-256 of its bytes: the same bytes are one image whoever
 * sends them, and an id names its bytes forever (so its answer can be cached as immutable).
 */
export interface StoredImage {
  sha256: string;
  /** `<sha256>.<extension>`: the last segment of its URL. */
  id: string;
  contentType: string;
  bytes: Uint8Array;
}

/** What `image` of POST /auth/update-user makes of the profile's image. */
export type ImageChange =
  | { kind: 'removed' }
  /** An https URL the user gives is kept as given (in its ASCII form), never fetched. */
  | { kind: 'linked'; url: string }
  | { kind: 'uploaded'; image: StoredImage };

const dataUrl = /^data:image\/(png|jpeg|gif|webp);base64,(.*)$/;

/** The change a validated `image` value (UpdateUserBody) asks for. */
export function imageChangeOf(value: string): ImageChange {
  if (value === '') return { kind: 'removed' };
  const match = dataUrl.exec(value);
  if (!match) return { kind: 'linked', url: value };
  const type = imageTypes[match[1] as ImageType];
  const bytes = Buffer.from(match[2] ?? '', 'base64');
  const sha256 = sha256Hex(bytes);
  return {
    kind: 'uploaded',
    image: { sha256, id: `${sha256}.${type.extension}`, contentType: type.contentType, bytes },
  };
}

/** The path of stored images under the service's base URL (ISSUER). */
const IMAGES_PATH = '/images';

/**
 * The URL of a stored image. Built when answering, from the id the profile keeps, so a new base
 * URL (a custom domain added later) moves every image URL with it.
 */
export const imageUrl = (issuer: string, id: string): string =>
  `${issuer.replace(/\/+$/, '')}${IMAGES_PATH}/${id}`;

const imageId = /^([0-9a-f]{64})\.(png|jpg|gif|webp)$/;

/** The hash and content type an image id names, or null when it cannot be one of ours. */
export function parseImageId(id: string | undefined): { sha256: string; contentType: string } | null {
  const match = imageId.exec(id ?? '');
  const type = Object.values(imageTypes).find((candidate) => candidate.extension === match?.[2]);
  return match?.[1] && type ? { sha256: match[1], contentType: type.contentType } : null;
}
