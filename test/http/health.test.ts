import { createLocalJWKSet, jwtVerify } from 'jose';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { signJwt } from '../../shared/crypto/jwt.ts';
import { startTestApp, type TestApp } from '../support/app.ts';

let app: TestApp;
beforeAll(async () => {
  app = await startTestApp({ env: { SERVICE_NAME: 'acme-auth' } });
});
afterAll(() => app.close());

describe('GET /', () => {
  it('answers 200 with the configured service name and the time', async () => {
    const response = await app.request('GET', '/');
    expect(response.status).toBe(200);
    expect(response.body).toEqual({
      status: 'ok',
      service: 'acme-auth',
      timestamp: new Date(app.clock.now()).toISOString(),
    });
    expect(response.headers['x-request-id']).toMatch(/^[0-9a-f-]{36}$/);
  });
});

describe('GET /status', () => {
  it('reports ok for the database and the signing keys', async () => {
    const response = await app.request('GET', '/status');
    expect(response.status).toBe(200);
    expect(response.body.status).toBe('ok');
    expect(response.body.service).toBe('acme-auth');
    expect(response.body.checks.map((check: { name: string }) => check.name).sort()).toEqual([
      'database',
      'signing-keys',
    ]);
    for (const check of response.body.checks) expect(check).toMatchObject({ status: 'ok' });
  });
});

describe('GET /.well-known/jwks.json', () => {
  it('publishes the RS256 key with an RFC 7638 kid, cacheable for an hour', async () => {
    const response = await app.request('GET', '/.well-known/jwks.json');
    expect(response.status).toBe(200);
    expect(response.headers['cache-control']).toContain('max-age=3600');
    expect(response.body.keys).toHaveLength(1);
    const [key] = response.body.keys;
    expect(key).toMatchObject({ kty: 'RSA', alg: 'RS256', use: 'sig', e: 'AQAB' });
    expect(key.kid).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(key).not.toHaveProperty('d');
  });

  it('verifies a token signed by the service signer', async () => {
    const token = await signJwt(app.deps.signer, { iss: 'test', sub: 'usr_1' });
    const { body } = await app.request('GET', '/.well-known/jwks.json');
    const { payload, protectedHeader } = await jwtVerify(token, createLocalJWKSet(body));
    expect(payload.sub).toBe('usr_1');
    expect(protectedHeader.kid).toBe(body.keys[0].kid);
  });
});

describe('malformed paths', () => {
  it('answer 400, never 500', async () => {
    const response = await app.request('OPTIONS', '/%E0%A4%A');
    expect(response.status).toBe(400);
  });
});

describe('unknown routes', () => {
  it('answer 404 as API Gateway does', async () => {
    const response = await app.request('GET', '/nope');
    expect(response.status).toBe(404);
    expect(response.body).toEqual({ message: 'Not Found' });
  });
});

describe('logs', () => {
  it('write one structured line per request with the request id', async () => {
    const response = await app.request('GET', '/');
    const line = app.logs
      .map((entry) => JSON.parse(entry))
      .find((entry) => entry.requestId === response.headers['x-request-id']);
    expect(line).toMatchObject({ level: 'info', message: 'request', route: 'GET /', status: 200 });
  });
});
