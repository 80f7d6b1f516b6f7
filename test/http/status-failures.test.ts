import { describe, expect, it } from 'vitest';
import { LocalSigner } from '../../shared/crypto/local-signer.ts';
import { noSigner, type Signer } from '../../shared/crypto/signer.ts';
import { freePort } from '../../shared/local/ports.ts';
import { startTestApp } from '../support/app.ts';
import { TestClock } from '../support/clock.ts';
import { testKeyPair } from '../support/keys.ts';

describe('GET /status when a dependency fails', () => {
  it('reports the database down, and still answers 200, when DynamoDB is unreachable', async () => {
    const app = await startTestApp({ env: { DYNAMODB_ENDPOINT: `http://127.0.0.1:${await freePort()}` } });
    try {
      const response = await app.request('GET', '/status');
      expect(response.status).toBe(200);
      expect(response.body.status).toBe('down');
      const database = response.body.checks.find((check: { name: string }) => check.name === 'database');
      expect(database).toMatchObject({ status: 'down', message: 'database unreachable' });
      expect(
        response.body.checks.find((check: { name: string }) => check.name === 'signing-keys'),
      ).toMatchObject({
        status: 'ok',
      });
    } finally {
      await app.close();
    }
  });

  it('reports a check slower than 400 ms as degraded, and the report as degraded', async () => {
    const clock = new TestClock();
    const real = new LocalSigner(testKeyPair().pem);
    const slow: Signer = {
      activeKey: () => real.activeKey(),
      sign: (input) => real.sign(input),
      publicKeys: async () => {
        clock.advance(401);
        return real.publicKeys();
      },
    };
    const app = await startTestApp({ clock, overrides: { signer: slow } });
    try {
      const response = await app.request('GET', '/status');
      expect(response.status).toBe(200);
      expect(response.body.status).toBe('degraded');
      expect(
        response.body.checks.find((check: { name: string }) => check.name === 'signing-keys'),
      ).toMatchObject({
        status: 'degraded',
        latencyMs: 401,
      });
    } finally {
      await app.close();
    }
  });

  it('reports a check of exactly 400 ms as ok', async () => {
    const clock = new TestClock();
    const real = new LocalSigner(testKeyPair().pem);
    const app = await startTestApp({
      clock,
      overrides: {
        signer: {
          ...real,
          activeKey: () => real.activeKey(),
          sign: (i) => real.sign(i),
          publicKeys: async () => {
            clock.advance(400);
            return real.publicKeys();
          },
        },
      },
    });
    try {
      const response = await app.request('GET', '/status');
      expect(response.body.status).toBe('ok');
    } finally {
      await app.close();
    }
  });

  it('publishes an empty key set and reports the signing keys down when none is configured', async () => {
    const app = await startTestApp({ overrides: { signer: noSigner } });
    try {
      const jwks = await app.request('GET', '/.well-known/jwks.json');
      expect(jwks.status).toBe(200);
      expect(jwks.body).toEqual({ keys: [] });
      const status = await app.request('GET', '/status');
      expect(status.status).toBe(200);
      expect(status.body.status).toBe('down');
      expect(
        status.body.checks.find((check: { name: string }) => check.name === 'signing-keys'),
      ).toMatchObject({
        status: 'down',
      });
    } finally {
      await app.close();
    }
  });
});
