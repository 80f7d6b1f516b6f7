import { createPublicKey, type KeyObject } from 'node:crypto';
import { calculateJwkThumbprint } from 'jose';
import type { PublicJwk } from './signer.ts';

/** The JWKS entry of an RSA public key; `kid` is its RFC 7638 SHA-256 thumbprint. */
export async function toPublicJwk(key: KeyObject | Uint8Array): Promise<PublicJwk> {
  const keyObject =
    key instanceof Uint8Array ? createPublicKey({ key: Buffer.from(key), format: 'der', type: 'spki' }) : key;
  const jwk = keyObject.export({ format: 'jwk' });
  if (jwk.kty !== 'RSA' || typeof jwk.n !== 'string' || typeof jwk.e !== 'string') {
    throw new Error('The signing key is not an RSA key');
  }
  const kid = await calculateJwkThumbprint({ kty: 'RSA', n: jwk.n, e: jwk.e }, 'sha256');
  return { kty: 'RSA', kid, alg: 'RS256', use: 'sig', n: jwk.n, e: jwk.e };
}
