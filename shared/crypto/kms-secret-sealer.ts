import { DecryptCommand, EncryptCommand, type KMSClient } from '@aws-sdk/client-kms';
import type { SecretSealer } from './secret-sealer.ts';

const PREFIX = 'kms.v1.';

/**
 * The KMS sealer: Encrypt and Decrypt with the symmetric key `keyId` and the encryption context
 * `{ applicationId }`, which KMS binds to the ciphertext (a blob opens only with the same context)
 * and which the key policy's `kms:EncryptionContext:applicationId` condition reads (lib/sealing-key.ts).
 * Decrypt names the key as well, so a blob of another key is refused rather than opened with it.
 */
export class KmsSecretSealer implements SecretSealer {
  constructor(
    private readonly client: KMSClient,
    private readonly keyId: string,
  ) {}

  async seal(applicationId: string, plaintext: string): Promise<string> {
    const { CiphertextBlob } = await this.client.send(
      new EncryptCommand({
        KeyId: this.keyId,
        Plaintext: new TextEncoder().encode(plaintext),
        EncryptionContext: { applicationId },
      }),
    );
    if (!CiphertextBlob) throw new Error('KMS Encrypt returned no ciphertext');
    return PREFIX + Buffer.from(CiphertextBlob).toString('base64url');
  }

  async open(applicationId: string, sealed: string): Promise<string> {
    if (!sealed.startsWith(PREFIX)) throw new Error('Not a KMS-sealed secret');
    const { Plaintext } = await this.client.send(
      new DecryptCommand({
        KeyId: this.keyId,
        CiphertextBlob: Buffer.from(sealed.slice(PREFIX.length), 'base64url'),
        EncryptionContext: { applicationId },
      }),
    );
    if (!Plaintext) throw new Error('KMS Decrypt returned no plaintext');
    return new TextDecoder().decode(Plaintext);
  }
}
