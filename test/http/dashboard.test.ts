import { gunzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import files from '../../dashboard/dist/files.json' with { type: 'json' };
import { DASHBOARD_CSP } from '../../shared/dashboard/files.ts';
import { startTestApp, type TestApp } from '../support/app.ts';

/**
 * `GET /dashboard/{proxy+}` and `GET /dashboard` through the real handler and server (docs/api.md,
 * "Owner dashboard"): the page for every console path, the built assets, 404 for any other file.
 */
let app: TestApp;
beforeAll(async () => {
  app = await startTestApp();
});
afterAll(async () => {
  await app.close();
});

const script = /<script type="module" src="([^"]+)"/.exec(files.index)?.[1] as string;

describe('GET /dashboard', () => {
  it.each(['/dashboard', '/dashboard/organizations', '/dashboard/applications/app_x/users?offset=20'])(
    'answers the page for %s under the strict CSP, revalidated on every visit',
    async (path) => {
      const answer = await app.request('GET', path);
      expect(answer.status).toBe(200);
      expect(answer.headers['content-type']).toBe('text/html; charset=utf-8');
      expect(answer.text).toBe(files.index);
      expect(answer.headers).toMatchObject({
        'cache-control': 'no-cache',
        'content-security-policy': DASHBOARD_CSP,
        'x-frame-options': 'DENY',
      });
      expect(answer.headers.etag).toMatch(/^"[\w-]+"$/);
    },
  );

  it('answers 304 to a revalidation that names its ETag', async () => {
    const first = await app.request('GET', '/dashboard');
    const again = await app.request('GET', '/dashboard', {
      headers: { 'if-none-match': String(first.headers.etag) },
    });
    expect(again.status).toBe(304);
    expect(again.bytes.length).toBe(0);
  });

  it('serves the entry script for a year, gzipped when the browser takes it', async () => {
    const answer = await app.request('GET', script, { headers: { 'accept-encoding': 'gzip, deflate, br' } });
    expect(answer.status).toBe(200);
    expect(answer.headers['content-type']).toBe('text/javascript; charset=utf-8');
    expect(answer.headers['cache-control']).toBe('public, max-age=31536000, immutable');
    expect(answer.headers['content-encoding']).toBe('gzip');
    const name = script.slice('/dashboard/assets/'.length) as keyof typeof files.assets;
    expect(gunzipSync(answer.bytes).toString()).toBe(files.assets[name].body);
  });

  it.each(['/dashboard/assets/app-00000000.js', '/dashboard/assets/styles.css'])(
    'answers 404 for %s, a file no build made',
    async (path) => {
      const answer = await app.request('GET', path);
      expect(answer.status).toBe(404);
      expect(answer.headers['content-type']).toBe('text/plain; charset=utf-8');
    },
  );

  it('reads no credential: a session cookie or key changes nothing and is never refused', async () => {
    const answer = await app.request('GET', '/dashboard', {
      headers: { cookie: 'doorcode.session_token=garbage', 'x-api-key': 'pu_nonsense' },
    });
    expect(answer.status).toBe(200);
    expect(answer.text).toBe(files.index);
  });

  it('answers the page for any path under it, however long: the console says when it names no screen', async () => {
    const answer = await app.request('GET', `/dashboard/${'a/'.repeat(300)}b`);
    expect(answer.status).toBe(200);
    expect(answer.text).toBe(files.index);
  });
});
