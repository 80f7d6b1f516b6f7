import { createHash, timingSafeEqual } from 'node:crypto';

/** Hex SHA-256: how every secret (codes, device codes, keys, tokens) is stored, and what names a stored image. */
export const sha256Hex = (value: string | Uint8Array): string =>
  createHash('sha256').update(value).digest('hex');

/** Raw SHA-256, for a name that is cut to a length (the stored-image ids). */
export const sha256Bytes = (value: string | Uint8Array): Buffer =>
  createHash('sha256').update(value).digest();

/** Constant-time comparison of two hex digests. */
export function sameDigest(a: string, b: string): boolean {
  const left = Buffer.from(a, 'hex');
  const right = Buffer.from(b, 'hex');
  return left.length === right.length && left.length > 0 && timingSafeEqual(left, right);
}
