import { createCipheriv, createDecipheriv, randomBytes } from 'node:crypto';
import { localKeyFile } from './local-code-key.ts';
import type { SecretSealer } from './secret-sealer.ts';

const KEY_BYTES = 32;
/** NIST SP 800-38D §8.2.2: a random 96-bit IV per seal. */
const IV_BYTES = 12;
const TAG_BYTES = 16;
/** The sealed form names its sealer, so a KMS blob is never taken for a local one. */
const PREFIX = 'local.v1.';

/**
 * Local mode's sealer: AES-256-GCM under a key held in memory, the application id as AAD, so a
 * sealed secret copied to another application's item does not open there.
 */
export class LocalSecretSealer implements SecretSealer {
  readonly #key: Buffer;

  constructor(key: Buffer) {
    if (key.length !== KEY_BYTES) throw new Error(`A sealing key is ${KEY_BYTES} bytes`);
    this.#key = key;
  }

  /**
   * The key in `file` (hex), created the first time (mode 0600, its folder 0700) like the code-hash
   * key (shared/crypto/local-code-key.ts): reading the local table's data alone opens no secret.
   */
  static fromFile(file: string): LocalSecretSealer {
    const hex = localKeyFile(file, KEY_BYTES).trim();
    if (!/^[0-9a-f]{64}$/i.test(hex)) throw new Error(`${file} does not hold a 64-hex-digit sealing key`);
    return new LocalSecretSealer(Buffer.from(hex, 'hex'));
  }

  async seal(applicationId: string, plaintext: string): Promise<string> {
    const iv = randomBytes(IV_BYTES);
    const cipher = createCipheriv('aes-256-gcm', this.#key, iv).setAAD(Buffer.from(applicationId, 'utf8'));
    const body = Buffer.concat([cipher.update(plaintext, 'utf8'), cipher.final()]);
    return PREFIX + Buffer.concat([iv, body, cipher.getAuthTag()]).toString('base64url');
  }

  async open(applicationId: string, sealed: string): Promise<string> {
    if (!sealed.startsWith(PREFIX)) throw new Error('Not a locally sealed secret');
    const bytes = Buffer.from(sealed.slice(PREFIX.length), 'base64url');
    if (bytes.length < IV_BYTES + TAG_BYTES) throw new Error('A sealed secret too short to open');
    const decipher = createDecipheriv('aes-256-gcm', this.#key, bytes.subarray(0, IV_BYTES), {
      authTagLength: TAG_BYTES,
    })
      .setAAD(Buffer.from(applicationId, 'utf8'))
      .setAuthTag(bytes.subarray(bytes.length - TAG_BYTES));
    const body = bytes.subarray(IV_BYTES, bytes.length - TAG_BYTES);
    return Buffer.concat([decipher.update(body), decipher.final()]).toString('utf8');
  }
}
