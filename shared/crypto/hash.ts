import { createHash, timingSafeEqual } from 'node:crypto';

/** Hex SHA-256: how every secret (codes, device codes, keys, tokens) is stored, and what names a stored image. */
export const sha256Hex = (value: string | Uint8Array): string =>
  createHash('sha256').update(value).digest('hex');

/** Raw SHA-256, for a name that is cut to a length (the stored-image ids). */
export const sha256Bytes = (value: string | Uint8Array): Buffer =>
  createHash('sha256').update(value).digest();

const HEX = /^(?:[0-9a-f]{2})+$/i;

/**
 * Constant-time comparison of two hex digests. Both must be whole hex (Buffer.from(_, 'hex') would
 * stop at the first other character, so `<digest>zz` would otherwise compare equal to `<digest>`).
 */
export function sameDigest(a: string, b: string): boolean {
  if (!HEX.test(a) || !HEX.test(b)) return false;
  const left = Buffer.from(a, 'hex');
  const right = Buffer.from(b, 'hex');
  return left.length === right.length && left.length > 0 && timingSafeEqual(left, right);
}
