import { type Clock, systemClock } from '../clock.ts';
import type { Config } from '../config.ts';
import { kmsClient } from './kms-client.ts';
import { KmsSigner } from './kms-signer.ts';
import { LocalSigner } from './local-signer.ts';
import { noSigner, type Signer } from './signer.ts';

/** The configured signer: a local PEM key (local mode), KMS keys (AWS), or none (empty JWKS). */
export function signerFrom(config: Config, clock: Clock = systemClock): Signer {
  if (config.LOCAL_SIGNING_KEY_FILE) return LocalSigner.fromFile(config.LOCAL_SIGNING_KEY_FILE);
  if (config.SIGNING_KEYS.length > 0) {
    const time = (iso: string | undefined) => (iso === undefined ? undefined : Date.parse(iso));
    const generations = config.SIGNING_KEYS.map(({ keyId, notBefore, notAfter }) => ({
      keyId,
      ...(notBefore === undefined ? {} : { notBefore: time(notBefore) }),
      ...(notAfter === undefined ? {} : { notAfter: time(notAfter) }),
    }));
    return new KmsSigner(kmsClient(config.AWS_REGION), generations, clock);
  }
  if (config.KMS_KEY_IDS.length > 0) {
    return new KmsSigner(kmsClient(config.AWS_REGION), config.KMS_KEY_IDS);
  }
  return noSigner;
}
