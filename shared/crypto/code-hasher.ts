import { createHmac } from 'node:crypto';

/**
 * The stored form of a sign-in code (docs/security.md, "The code-hash key"): a code space of 31⁸ falls to an
 * offline search in under a minute, so the hash is keyed with a secret that readers of the table do not have.
 */
export interface CodeHasher {
  /**
   * Hex HMAC-SHA256 of `requestId:code`, `code` already normalised by the domain (shared/sign-in/code.ts):
   * bound to its request, so equal codes of two requests differ.
   */
  hash(requestId: string, code: string): Promise<string>;
}

/** The key's length in bytes, and its text form: 64 lower-case hex characters (the secret and the local file). */
export const CODE_KEY_BYTES = 32;
const HEX_KEY = new RegExp(`^[0-9a-f]{${CODE_KEY_BYTES * 2}}$`);

/** The key bytes of its text form; anything else is refused, so a truncated or wrong secret never hashes. */
export function codeKeyFromHex(text: string): Buffer {
  const hex = text.trim();
  if (!HEX_KEY.test(hex))
    throw new Error(`The code-hash key must be ${CODE_KEY_BYTES * 2} lower-case hex characters`);
  return Buffer.from(hex, 'hex');
}

const hmacCodeHash = (key: Uint8Array, requestId: string, code: string): string =>
  createHmac('sha256', key).update(`${requestId}:${code}`).digest('hex');

/** A hasher whose key is fetched on first use and kept; a failed fetch is tried again on the next call. */
export function keyedCodeHasher(fetchKey: () => Promise<Uint8Array>): CodeHasher {
  let key: Promise<Uint8Array> | undefined;
  return {
    async hash(requestId, code) {
      key ??= fetchKey().catch((error: unknown) => {
        key = undefined;
        throw error;
      });
      return hmacCodeHash(await key, requestId, code);
    },
  };
}
