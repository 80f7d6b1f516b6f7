import { GetSecretValueCommand, SecretsManagerClient } from '@aws-sdk/client-secrets-manager';

const client = new SecretsManagerClient({});

export const firstCall = () => client.send(new GetSecretValueCommand({ SecretId: 'floor' }));
