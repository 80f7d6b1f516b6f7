import { randomBytes } from 'node:crypto';

/** Randomness source (a CSPRNG in production). */
export interface Random {
  bytes(length: number): Uint8Array;
}

export const cryptoRandom: Random = { bytes: (length) => randomBytes(length) };

/** A prefixed identifier with 128 random bits, e.g. `usr_3k9...`. */
export function newId(random: Random, prefix: string): string {
  return `${prefix}_${Buffer.from(random.bytes(16)).toString('base64url')}`;
}
