/** Randomness source (a CSPRNG in production). */
export interface Random {
  bytes(length: number): Uint8Array;
}

/**
 * Node's CSPRNG. `node:crypto` is loaded at the first draw, not at import: a route that never draws
 * (a preflight, a discovery document) does not load it at its cold start (docs/operations.md,
 * "Cold starts").
 */
export const cryptoRandom: Random = {
  bytes: (length) => process.getBuiltinModule('node:crypto').randomBytes(length),
};

/** A secret shown once and stored only as its hash: 256 random bits, base64url. */
export const newSecret = (random: Random): string => Buffer.from(random.bytes(32)).toString('base64url');

/** A prefixed identifier with 128 random bits, e.g. `usr_3k9...`. */
export function newId(random: Random, prefix: string): string {
  return `${prefix}_${Buffer.from(random.bytes(16)).toString('base64url')}`;
}

/**
 * 64 random bits naming one conditional write, stored with it: when the SDK sends the write again
 * after its answer was lost, the repository finds its own id in the item the failed condition
 * returns, and takes the write as landed (never as a concurrent request's, which has its own id).
 */
export const newWriteId = (random: Random): string => Buffer.from(random.bytes(8)).toString('base64url');
