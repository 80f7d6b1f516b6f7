import type { JWK } from 'jose';

/** A public verification key as published in the JWKS (RFC 7517), `kid` = RFC 7638 thumbprint. */
export interface PublicJwk extends JWK {
  kty: 'RSA';
  kid: string;
  alg: 'RS256';
  use: 'sig';
  n: string;
  e: string;
}

/**
 * Signs JWS signing inputs with RS256 (RSASSA-PKCS1-v1_5 over SHA-256).
 * Implemented by `KmsSigner` (AWS KMS) and `LocalSigner` (a PEM key in `.data/`).
 */
export interface Signer {
  /** The active key: the one `sign` uses. */
  activeKey(): Promise<PublicJwk>;
  /** Every configured public key, active first. Cached per container. */
  publicKeys(): Promise<PublicJwk[]>;
  /**
   * RS256 signature of `signingInput` (the ASCII `header.payload`) with the key of `kid` (the one
   * its header names, so a key switch between `activeKey` and `sign` cannot mismatch them), else
   * with the active key. A signer with one key ignores `kid`.
   */
  sign(signingInput: Uint8Array, kid?: string): Promise<Uint8Array>;
}

/** KMS's name of RS256, the only signing algorithm: KmsSigner signs with it, the key policy allows no other. */
export const SIGNING_ALGORITHM = 'RSASSA_PKCS1_V1_5_SHA_256';

/** Used when no signing key is configured: the JWKS is empty and signing fails loudly. */
export const noSigner: Signer = {
  activeKey: () => Promise.reject(new Error('No signing key is configured')),
  publicKeys: () => Promise.resolve([]),
  sign: () => Promise.reject(new Error('No signing key is configured')),
};
