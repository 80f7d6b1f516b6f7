import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PLATFORM_ORIGIN, startTestApp, type TestApp } from '../support/app.ts';
import { freshIp } from '../support/http-client.ts';
import { newEmail } from '../support/sign-in.ts';

let app: TestApp;
beforeAll(async () => {
  app = await startTestApp();
});
afterAll(() => app.close());

const APP_ORIGIN = 'https://notes.customer.example';

describe('CORS preflight (OPTIONS)', () => {
  it('allows a platform origin with credentials', async () => {
    const response = await app.request('OPTIONS', '/auth/code/verify', {
      headers: {
        origin: PLATFORM_ORIGIN,
        'access-control-request-method': 'POST',
        'access-control-request-headers': 'content-type, x-api-key',
      },
    });
    expect(response.status).toBe(204);
    expect(response.headers['access-control-allow-origin']).toBe(PLATFORM_ORIGIN);
    expect(response.headers['access-control-allow-credentials']).toBe('true');
    expect(response.headers['access-control-allow-methods']).toContain('POST');
    expect(response.headers['access-control-allow-headers']).toContain('x-api-key');
    expect(response.headers['access-control-allow-headers']).toContain('authorization');
    // A browser MCP client sends the transport's headers and reads the endpoint's challenges.
    expect(response.headers['access-control-allow-headers']).toContain('mcp-protocol-version');
    expect(response.headers['access-control-expose-headers']).toContain('www-authenticate');
    expect(response.headers.vary).toBe('Origin');
  });

  it("allows an application's origin without credentials", async () => {
    const response = await app.request('OPTIONS', '/auth/session', { headers: { origin: APP_ORIGIN } });
    expect(response.status).toBe(204);
    expect(response.headers['access-control-allow-origin']).toBe(APP_ORIGIN);
    expect(response.headers['access-control-allow-credentials']).toBeUndefined();
  });

  it('adds nothing without an Origin, but still tells caches the answer varies by Origin', async () => {
    const response = await app.request('OPTIONS', '/auth/session');
    expect(response.status).toBe(204);
    expect(response.headers['access-control-allow-origin']).toBeUndefined();
    const jwks = await app.request('GET', '/.well-known/jwks.json');
    expect(jwks.headers.vary).toBe('Origin');
  });
});

describe('CORS on answers', () => {
  it('exposes set-auth-token and allows credentials only for the platform origin', async () => {
    const email = newEmail();
    const start = await app.request('POST', '/auth/code/start', {
      body: { email },
      headers: { origin: APP_ORIGIN },
      ip: freshIp(),
    });
    expect(start.status).toBe(200);
    expect(start.headers['access-control-allow-origin']).toBe(APP_ORIGIN);
    expect(start.headers['access-control-expose-headers']).toContain('set-auth-token');
    expect(start.headers['access-control-allow-credentials']).toBeUndefined();

    const platform = await app.request('GET', '/', { headers: { origin: PLATFORM_ORIGIN } });
    expect(platform.headers['access-control-allow-credentials']).toBe('true');
  });

  it('carries the headers on errors too, so browsers can read the envelope', async () => {
    const response = await app.request('POST', '/auth/code/verify', {
      body: { email: 'not-an-email' },
      headers: { origin: APP_ORIGIN },
      ip: freshIp(),
    });
    expect(response.status).toBe(400);
    expect(response.body.error.code).toBe('VALIDATION_ERROR');
    expect(response.headers['access-control-allow-origin']).toBe(APP_ORIGIN);
  });
});
