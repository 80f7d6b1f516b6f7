import { GetSecretValueCommand, type SecretsManagerClient } from '@aws-sdk/client-secrets-manager';
import { type CodeHasher, codeKeyFromHex, keyedCodeHasher } from './code-hasher.ts';

/**
 * The code-hash key held in AWS Secrets Manager (lib/code-key.ts generates it as hex). Read with one
 * GetSecretValue per container, outside any request's call budget after the first; a failed read is
 * tried again by the next request instead of failing the container for its lifetime.
 */
export function secretsManagerCodeHasher(client: SecretsManagerClient, secretArn: string): CodeHasher {
  return keyedCodeHasher(async () => {
    const { SecretString } = await client.send(new GetSecretValueCommand({ SecretId: secretArn }));
    if (SecretString === undefined) throw new Error('The code-hash secret has no string value');
    return codeKeyFromHex(SecretString);
  });
}
