import { request } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../support/app.ts';

let app: TestApp;
beforeAll(async () => {
  app = await startTestApp();
});
afterAll(() => app.close());

/**
 * A GET with this exact request target, to the local server only. The test client (and `fetch`)
 * would resolve `//host/...` and `..` themselves before sending, which is what is under test here.
 */
function getRawTarget(target: string): Promise<{ status: number; body: unknown }> {
  const { hostname, port } = new URL(app.url);
  return new Promise((resolve, reject) => {
    const req = request({ host: hostname, port, path: target, method: 'GET', agent: false }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (chunk: Buffer) => chunks.push(chunk));
      res.on('end', () =>
        resolve({ status: res.statusCode ?? 0, body: JSON.parse(Buffer.concat(chunks).toString('utf8')) }),
      );
      res.on('error', reject);
    });
    req.on('error', reject);
    req.end();
  });
}

// API Gateway matches routes on the path as sent, without resolving dot segments
// or reading a host from a leading `//`; such a path is no route.
describe('request targets the local server must not rewrite', () => {
  it.each(['//evil.test/auth/session', '/.well-known/../auth/session', '/./auth/session', '/auth/./session'])(
    'GET %s answers 404 as API Gateway does',
    async (target) => {
      const response = await getRawTarget(target);
      expect(response).toEqual({ status: 404, body: { message: 'Not Found' } });
    },
  );

  it('still routes the plain path, with its query', async () => {
    const response = await getRawTarget('/auth/session?x=1');
    expect(response).toEqual({ status: 200, body: {} });
  });
});
