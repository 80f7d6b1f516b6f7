import { createHash } from 'node:crypto';
import { GetPublicKeyCommand, type KMSClient, SignCommand } from '@aws-sdk/client-kms';
import { toPublicJwk } from './public-jwk.ts';
import type { PublicJwk, Signer } from './signer.ts';

const SIGNING_ALGORITHM = 'RSASSA_PKCS1_V1_5_SHA_256';

/**
 * Signs through AWS KMS. The first key id signs; all are published.
 * KMS receives only the SHA-256 digest (`MessageType: DIGEST`), which is what the IAM
 * condition `kms:MessageType = DIGEST` in the stack requires.
 */
export class KmsSigner implements Signer {
  #keys?: Promise<PublicJwk[]>;

  constructor(
    private readonly kms: KMSClient,
    private readonly keyIds: readonly string[],
  ) {
    if (keyIds.length === 0) throw new Error('KmsSigner needs at least one key id');
  }

  publicKeys(): Promise<PublicJwk[]> {
    // Public keys never change for a key id: fetch once per container, retry after a failure.
    this.#keys ??= Promise.all(this.keyIds.map((keyId) => this.#fetchPublicKey(keyId))).catch((error) => {
      this.#keys = undefined;
      throw error;
    });
    return this.#keys;
  }

  async activeKey(): Promise<PublicJwk> {
    const [active] = await this.publicKeys();
    if (!active) throw new Error('No signing key is configured');
    return active;
  }

  async sign(signingInput: Uint8Array): Promise<Uint8Array> {
    const digest = createHash('sha256').update(signingInput).digest();
    const { Signature } = await this.kms.send(
      new SignCommand({
        KeyId: this.keyIds[0],
        Message: digest,
        MessageType: 'DIGEST',
        SigningAlgorithm: SIGNING_ALGORITHM,
      }),
    );
    if (!Signature) throw new Error('KMS returned no signature');
    return Signature;
  }

  async #fetchPublicKey(keyId: string): Promise<PublicJwk> {
    const answer = await this.kms.send(new GetPublicKeyCommand({ KeyId: keyId }));
    if (!answer.PublicKey) throw new Error(`KMS returned no public key for ${keyId}`);
    if (answer.KeyUsage !== 'SIGN_VERIFY' || !answer.SigningAlgorithms?.includes(SIGNING_ALGORITHM)) {
      throw new Error(`KMS key ${keyId} cannot sign with ${SIGNING_ALGORITHM}`);
    }
    return toPublicJwk(answer.PublicKey);
  }
}
