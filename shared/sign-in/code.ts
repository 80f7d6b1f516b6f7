import type { CodeHasher } from '../crypto/code-hasher.ts';
import type { Random } from '../random.ts';

/**
 * Uppercase letters and digits without the look-alikes 0/O, 1/I/L (docs/security.md,
 * "Secrets and what is stored").
 */
export const CODE_ALPHABET = 'ABCDEFGHJKMNPQRSTUVWXYZ23456789';
export const CODE_LENGTH = 8;

/** A uniformly random code from a CSPRNG (rejection sampling, so no character is favoured). */
export function generateCode(random: Random): string {
  const limit = 256 - (256 % CODE_ALPHABET.length);
  let code = '';
  while (code.length < CODE_LENGTH) {
    for (const byte of random.bytes(CODE_LENGTH * 2)) {
      if (byte < limit && code.length < CODE_LENGTH) code += CODE_ALPHABET[byte % CODE_ALPHABET.length];
    }
  }
  return code;
}

/** Matched case-insensitively, ignoring hyphens (and, for typing comfort, spaces). */
export function normaliseCode(input: string): string {
  return input.replace(/[\s-]/g, '').toUpperCase();
}

/** Shown as two groups of four: `ABCD-EFGH`. */
export function formatCode(code: string): string {
  return `${code.slice(0, 4)}-${code.slice(4)}`;
}

/**
 * The stored form (docs/security.md, "The code-hash key"), bound to its request so equal codes of two
 * requests differ, and keyed with the server-side code key so that a reader of the table cannot search the
 * 31⁸ codes offline.
 */
export const codeHash = (hasher: CodeHasher, requestId: string, code: string): Promise<string> =>
  hasher.hash(requestId, normaliseCode(code));

/** The device code: 64 hex characters (256 bits), stored only as its hash. */
export function generateDeviceCode(random: Random): string {
  return Buffer.from(random.bytes(32)).toString('hex');
}
