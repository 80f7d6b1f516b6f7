import { createPrivateKey, createPublicKey, generateKeyPairSync, type KeyObject, sign } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname } from 'node:path';
import { toPublicJwk } from './public-jwk.ts';
import type { PublicJwk, Signer } from './signer.ts';

/** Signs with an RSA private key held in memory (local mode and tests). */
export class LocalSigner implements Signer {
  readonly #privateKey: KeyObject;
  #publicKey?: Promise<PublicJwk>;

  constructor(privateKeyPem: string) {
    this.#privateKey = createPrivateKey(privateKeyPem);
    if (this.#privateKey.asymmetricKeyType !== 'rsa') throw new Error('The local signing key must be RSA');
  }

  /** Loads the PEM at `file`, creating a 2048-bit key there (mode 0600, its folder 0700) the first time. */
  static fromFile(file: string): LocalSigner {
    if (!existsSync(file)) {
      mkdirSync(dirname(file), { recursive: true, mode: 0o700 });
      writeFileSync(file, generateLocalKeyPem(), { mode: 0o600 });
    }
    return new LocalSigner(readFileSync(file, 'utf8'));
  }

  activeKey(): Promise<PublicJwk> {
    this.#publicKey ??= toPublicJwk(createPublicKey(this.#privateKey));
    return this.#publicKey;
  }

  #keys?: Promise<PublicJwk[]>;

  publicKeys(): Promise<PublicJwk[]> {
    this.#keys ??= this.activeKey().then((key) => [key]);
    return this.#keys;
  }

  async sign(signingInput: Uint8Array): Promise<Uint8Array> {
    return sign('sha256', signingInput, this.#privateKey);
  }
}

export function generateLocalKeyPem(): string {
  const { privateKey } = generateKeyPairSync('rsa', { modulusLength: 2048 });
  return privateKey.export({ format: 'pem', type: 'pkcs8' }).toString();
}
