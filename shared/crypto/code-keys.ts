import { SecretsManagerClient } from '@aws-sdk/client-secrets-manager';
import { type Config, ConfigError } from '../config.ts';
import type { CodeHasher } from './code-hasher.ts';
import { localCodeHasher } from './local-code-key.ts';
import { secretsManagerCodeHasher } from './secrets-manager-code-key.ts';

/**
 * The configured code hasher: a key file (local mode) or the Secrets Manager secret (AWS). Without
 * either it refuses to hash, naming both settings, as a route that declares `codeKey` cannot work.
 */
export function codeHasherFrom(config: Config): CodeHasher {
  if (config.LOCAL_CODE_KEY_FILE) return localCodeHasher(config.LOCAL_CODE_KEY_FILE);
  if (config.CODE_KEY_SECRET_ARN) {
    return secretsManagerCodeHasher(
      new SecretsManagerClient({ region: config.AWS_REGION }),
      config.CODE_KEY_SECRET_ARN,
    );
  }
  return {
    hash: () =>
      Promise.reject(new ConfigError('Set CODE_KEY_SECRET_ARN or LOCAL_CODE_KEY_FILE to hash sign-in codes')),
  };
}
