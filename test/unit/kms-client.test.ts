import { createServer, type Socket } from 'node:net';
import { KMSClient, SignCommand } from '@aws-sdk/client-kms';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  KMS_CALLS_PER_REQUEST,
  KMS_MAX_ATTEMPTS,
  KMS_RETRY_DELAY_MS,
  KMS_TIMEOUTS,
  kmsClient,
  kmsClientConfig,
} from '../../shared/crypto/kms-client.ts';
import { FUNCTION_TIMEOUT_SECONDS } from '../../shared/route-spec.ts';

/** A "KMS" on loopback that takes every connection and reads the request, but never answers. */
const sockets: Socket[] = [];
const silent = createServer((socket) => {
  sockets.push(socket);
  socket.resume();
});
let endpoint = '';

beforeAll(async () => {
  await new Promise<void>((listening) => silent.listen(0, '127.0.0.1', listening));
  const address = silent.address();
  if (!address || typeof address === 'string') throw new Error('no port');
  endpoint = `http://127.0.0.1:${address.port}`;
});
afterAll(async () => {
  for (const socket of sockets) socket.destroy();
  await new Promise((closed) => silent.close(closed));
});

describe('the KMS client of the service', () => {
  it('gives up on a KMS that never answers, after its tries, with a TimeoutError', async () => {
    // Prepare
    const client = new KMSClient({
      ...kmsClientConfig('us-east-1'),
      endpoint,
      credentials: { accessKeyId: 'local', secretAccessKey: 'local' },
    });

    // Act
    const error = await client
      .send(
        new SignCommand({
          KeyId: 'alias/doorcode-signing',
          Message: new Uint8Array(32),
          MessageType: 'DIGEST',
          SigningAlgorithm: 'RSASSA_PKCS1_V1_5_SHA_256',
        }),
      )
      .then(
        () => null,
        (thrown: unknown) => thrown,
      );

    // Assess
    expect(error).toMatchObject({ name: 'TimeoutError', $metadata: { attempts: KMS_MAX_ATTEMPTS } });
    expect(sockets).toHaveLength(KMS_MAX_ATTEMPTS);
  }, 20_000);

  it("keeps a request's KMS calls, every try timing out, under the function time", () => {
    const perCall =
      KMS_MAX_ATTEMPTS * (KMS_TIMEOUTS.connectionTimeout + KMS_TIMEOUTS.requestTimeout) +
      (KMS_MAX_ATTEMPTS - 1) * KMS_RETRY_DELAY_MS;
    expect(KMS_CALLS_PER_REQUEST * perCall).toBeLessThan(FUNCTION_TIMEOUT_SECONDS * 1000);
  });

  it('kmsClient, which the signers and the sealer use, makes its calls with those tries', () => {
    const client = kmsClient('eu-west-1');
    expect(client.config.maxAttempts).toBeDefined();
    return expect(client.config.maxAttempts()).resolves.toBe(KMS_MAX_ATTEMPTS);
  });
});
