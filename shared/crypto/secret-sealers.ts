import { type Config, ConfigError } from '../config.ts';
import { kmsClient } from './kms-client.ts';
import { KmsSecretSealer } from './kms-secret-sealer.ts';
import { LocalSecretSealer } from './local-secret-sealer.ts';
import type { SecretSealer } from './secret-sealer.ts';

/**
 * The configured sealer: a key file (local mode) or the KMS sealing key (AWS). Without either it
 * refuses, naming both settings, as a route that declares `seal` cannot work.
 */
export function secretSealerFrom(config: Config): SecretSealer {
  if (config.LOCAL_SEALING_KEY_FILE) return LocalSecretSealer.fromFile(config.LOCAL_SEALING_KEY_FILE);
  if (config.SEALING_KEY_ID) {
    return new KmsSecretSealer(kmsClient(config.AWS_REGION), config.SEALING_KEY_ID);
  }
  const refuse = () =>
    Promise.reject(new ConfigError('Set SEALING_KEY_ID or LOCAL_SEALING_KEY_FILE to seal client secrets'));
  return { seal: refuse, open: refuse };
}
