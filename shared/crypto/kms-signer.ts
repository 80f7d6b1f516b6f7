import { createHash } from 'node:crypto';
import { GetPublicKeyCommand, type KMSClient, SignCommand } from '@aws-sdk/client-kms';
import { type Clock, systemClock } from '../clock.ts';
import { activeGeneration, type KeyGeneration, publishedGenerations } from './key-schedule.ts';
import { toPublicJwk } from './public-jwk.ts';
import { type PublicJwk, SIGNING_ALGORITHM, type Signer } from './signer.ts';

/**
 * Signs through AWS KMS. `keys` are the key generations (shared/crypto/key-schedule.ts): by the
 * clock, the active one signs and the published ones make the JWKS, active first. A plain key id
 * is a generation without a window (the legacy `KMS_KEY_IDS`: the first signs, all are published).
 * KMS receives only the SHA-256 digest (`MessageType: DIGEST`), which is what the key policy's
 * condition `kms:MessageType = DIGEST` requires.
 */
export class KmsSigner implements Signer {
  readonly #keys: readonly KeyGeneration[];
  /** Public key per key id: it never changes, so it is fetched once per container (again after a failure). */
  readonly #jwks = new Map<string, Promise<PublicJwk>>();
  /** kid -> key id, for `sign(input, kid)`. */
  readonly #keyIdOfKid = new Map<string, string>();
  /** The last published list: the same array while the selection is unchanged (jwt.ts caches its key set by it). */
  #published?: { selection: string; keys: PublicJwk[] };

  constructor(
    private readonly kms: KMSClient,
    keys: ReadonlyArray<string | KeyGeneration>,
    private readonly clock: Clock = systemClock,
  ) {
    if (keys.length === 0) throw new Error('KmsSigner needs at least one key id');
    this.#keys = keys.map((key) => (typeof key === 'string' ? { keyId: key } : key));
  }

  async publicKeys(): Promise<PublicJwk[]> {
    const published = publishedGenerations(this.#keys, this.clock.now());
    const selection = published.map((key) => key.keyId).join('\n');
    const keys = await Promise.all(published.map((key) => this.#publicKey(key.keyId)));
    if (this.#published?.selection !== selection) this.#published = { selection, keys };
    return this.#published.keys;
  }

  async activeKey(): Promise<PublicJwk> {
    return this.#publicKey(this.#active().keyId);
  }

  /** Signs with the key of `kid` (the one signJwt put in the header), else with the active key. */
  async sign(signingInput: Uint8Array, kid?: string): Promise<Uint8Array> {
    const keyId = (kid === undefined ? undefined : this.#keyIdOfKid.get(kid)) ?? this.#active().keyId;
    const digest = createHash('sha256').update(signingInput).digest();
    const { Signature } = await this.kms.send(
      new SignCommand({
        KeyId: keyId,
        Message: digest,
        MessageType: 'DIGEST',
        SigningAlgorithm: SIGNING_ALGORITHM,
      }),
    );
    if (!Signature) throw new Error('KMS returned no signature');
    return Signature;
  }

  #active(): KeyGeneration {
    const now = this.clock.now();
    const active = activeGeneration(this.#keys, now);
    if (!active) throw new Error(`No signing key generation signs at ${new Date(now).toISOString()}`);
    return active;
  }

  #publicKey(keyId: string): Promise<PublicJwk> {
    let jwk = this.#jwks.get(keyId);
    if (!jwk) {
      jwk = this.#fetchPublicKey(keyId).catch((error: unknown) => {
        this.#jwks.delete(keyId);
        throw error;
      });
      this.#jwks.set(keyId, jwk);
    }
    return jwk;
  }

  async #fetchPublicKey(keyId: string): Promise<PublicJwk> {
    const answer = await this.kms.send(new GetPublicKeyCommand({ KeyId: keyId }));
    if (!answer.PublicKey) throw new Error(`KMS returned no public key for ${keyId}`);
    if (answer.KeyUsage !== 'SIGN_VERIFY' || !answer.SigningAlgorithms?.includes(SIGNING_ALGORITHM)) {
      throw new Error(`KMS key ${keyId} cannot sign with ${SIGNING_ALGORITHM}`);
    }
    const jwk = await toPublicJwk(answer.PublicKey);
    this.#keyIdOfKid.set(jwk.kid, keyId);
    return jwk;
  }
}
