import { describe, expect, it } from 'vitest';
import { sameDigest, sha256Hex } from '../../shared/crypto/hash.ts';

describe('sameDigest (code hashes, the recent-accounts cookie MAC)', () => {
  const digest = sha256Hex('a');

  it('is true for the same digest, in either case', () => {
    expect(sameDigest(digest, digest)).toBe(true);
    expect(sameDigest(digest.toUpperCase(), digest)).toBe(true);
  });

  it.each([
    ['another digest', sha256Hex('b')],
    ['the digest with trailing non-hex characters', `${digest}zz`],
    ['the digest with a trailing odd nibble', `${digest}a`],
    ['a truncated digest', digest.slice(0, 62)],
    ['an empty string', ''],
  ])('is false for %s', (_case, other) => {
    expect(sameDigest(other, digest)).toBe(false);
    expect(sameDigest(digest, other)).toBe(false);
  });
});
