import { GetPublicKeyCommand, KMSClient } from '@aws-sdk/client-kms';

const client = new KMSClient({});

export const firstCall = () => client.send(new GetPublicKeyCommand({ KeyId: 'alias/floor' }));
