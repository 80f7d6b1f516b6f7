import { sha256Bytes, sha256Hex } from '../crypto/hash.ts';
import { serviceUrl } from '../service-url.ts';
import type { ImageChange } from '../store/accounts.ts';

/** The image types a data URL may carry (shared/users/schemas.ts checks their magic bytes). */
const imageTypes = {
  png: { contentType: 'image/png', extension: 'png' },
  jpeg: { contentType: 'image/jpeg', extension: 'jpg' },
  gif: { contentType: 'image/gif', extension: 'gif' },
  webp: { contentType: 'image/webp', extension: 'webp' },
} as const;
type ImageType = keyof typeof imageTypes;

/**
 * 18 bytes of SHA-256 (144 bits, at least the 128 an unguessable public name needs) fill 24
 * base64url characters exactly. The owner's id goes in hashed: the URL is public, the id is not.
 */
const ID_BYTES = 18;
const storedImageName = (ownerId: string, sha256: string): string =>
  sha256Bytes(`${ownerId}:${sha256}`).subarray(0, ID_BYTES).toString('base64url');

const dataUrl = /^data:image\/(png|jpeg|gif|webp);base64,(.*)$/;

/** The change a validated `image` value (UpdateUserBody) of user `ownerId` asks for. */
export function imageChangeOf(value: string, ownerId: string): ImageChange {
  if (value === '') return { kind: 'removed' };
  const match = dataUrl.exec(value);
  if (!match) return { kind: 'linked', url: value };
  const type = imageTypes[match[1] as ImageType];
  const bytes = Buffer.from(match[2] ?? '', 'base64');
  const sha256 = sha256Hex(bytes);
  const id = `${storedImageName(ownerId, sha256)}.${type.extension}`;
  return { kind: 'uploaded', image: { sha256, id, contentType: type.contentType, bytes } };
}

/** The path of stored images under the service's base URL (ISSUER). */
const IMAGES_PATH = '/images';

/**
 * The URL of a stored image. Built when answering, from the id the profile keeps, so a new base
 * URL (a custom domain added later) moves every image URL with it.
 */
export const imageUrl = (issuer: string, id: string): string => serviceUrl(issuer, `${IMAGES_PATH}/${id}`);

const imageId = new RegExp(`^[A-Za-z0-9_-]{${(ID_BYTES * 4) / 3}}\\.(png|jpg|gif|webp)$`);

/** Whether `id` can name a stored image (anything else is not looked up). */
export const isImageId = (id: string | undefined): id is string => imageId.test(id ?? '');
