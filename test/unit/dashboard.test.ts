import { gunzipSync } from 'node:zlib';
import { beforeAll, describe, expect, it } from 'vitest';
import { buildDashboard, type DashboardBuild } from '../../dashboard/build.ts';
import { DASHBOARD_CSP, dashboardServer } from '../../shared/dashboard/files.ts';

/**
 * The owner dashboard's build and how its route serves it (docs/dashboard.md, "How it is served").
 * test/browser/dashboard-*.test.ts drive the console itself; test/http/dashboard.test.ts the route.
 */
let build: DashboardBuild;
beforeAll(async () => {
  build = await buildDashboard();
});

describe('the dashboard build', () => {
  it('imports only its own code, Preact, uPlot, the permission matrix and the audit actions: the API is its only way in', () => {
    const outside = build.inputs.filter(
      (input) =>
        !input.startsWith('dashboard/src/') &&
        !/^node_modules\/(preact|uplot)\//.test(input) &&
        // Data, importing nothing: who may do what, and the actions of the audit trail with their summaries.
        input !== 'shared/tenancy/permissions.ts' &&
        input !== 'shared/tenancy/audit-actions.ts' &&
        // The routes' methods and paths, as data (dashboard/build.ts).
        input !== '<define:DASHBOARD_ROUTES>',
    );
    expect(outside).toEqual([]);
  });

  it('takes the route table as types only: no route contract or zod reaches the browser', () => {
    expect(build.inputs.filter((input) => input.startsWith('shared/route') || input.includes('zod'))).toEqual(
      [],
    );
  });

  it('names every asset by a hash of its bytes, and the page names its entry script and style sheet', () => {
    const names = Object.keys(build.files.assets);
    expect(names.length).toBeGreaterThan(2);
    for (const name of names) expect(name).toMatch(/^[a-z-]+-[A-Z0-9]{8}\.(js|css)$/);
    const script = /<script type="module" src="\/dashboard\/assets\/([^"]+)"/.exec(build.files.index)?.[1];
    const style = /<link rel="stylesheet" href="\/dashboard\/assets\/([^"]+)"/.exec(build.files.index)?.[1];
    expect(names).toContain(script);
    expect(names).toContain(style);
  });

  it('has no inline script or style in the page, which the CSP would refuse', () => {
    expect(build.files.index).not.toMatch(/<script(?![^>]*\bsrc=)[^>]*>/);
    expect(build.files.index).not.toMatch(/<style|style=/);
  });

  it('knows the method and path of the routes it calls from the route table', async () => {
    const code = Object.values(build.files.assets)
      .map((file) => file.body)
      .join('\n');
    expect(code).toContain('"/application/{organizationId}"');
    expect(code).toContain('"/auth/code/verify"');
  });
});

describe('serving the dashboard', () => {
  const files = {
    index: '<!doctype html><title>x</title>'.padEnd(2000, ' '),
    assets: {
      'app-ABCDEFGH.js': { type: 'text/javascript; charset=utf-8', body: 'console.log(1);'.repeat(200) },
    },
  };
  const serve = dashboardServer(files);

  it.each(['/dashboard', '/dashboard/organizations', '/dashboard/applications/app_1/users/usr_2'])(
    'answers the page for %s, never cached without asking, under the strict CSP',
    (path) => {
      const file = serve(path, {});
      expect(file.status).toBe(200);
      expect(file.contentType).toBe('text/html; charset=utf-8');
      expect(file.bytes.toString()).toBe(files.index);
      expect(file.headers).toMatchObject({
        'cache-control': 'no-cache',
        'content-security-policy': DASHBOARD_CSP,
        'x-frame-options': 'DENY',
        'x-content-type-options': 'nosniff',
      });
    },
  );

  it('answers an asset for a year, immutable', () => {
    const file = serve('/dashboard/assets/app-ABCDEFGH.js', {});
    expect(file.status).toBe(200);
    expect(file.contentType).toBe('text/javascript; charset=utf-8');
    expect(file.headers['cache-control']).toBe('public, max-age=31536000, immutable');
  });

  it.each(['/dashboard/assets/app-OLD00000.js', '/dashboard/assets/', '/dashboard/assets/../index'])(
    'answers 404 for %s, a file no build made, never the page',
    (path) => {
      const file = serve(path, {});
      expect(file.status).toBe(404);
      expect(file.contentType).toBe('text/plain; charset=utf-8');
      expect(file.headers['cache-control']).toBe('no-store');
    },
  );

  it('compresses when Accept-Encoding takes gzip, and only then', () => {
    const plain = serve('/dashboard/assets/app-ABCDEFGH.js', {});
    const zipped = serve('/dashboard/assets/app-ABCDEFGH.js', { acceptEncoding: 'br, gzip;q=0.8' });
    expect(plain.headers['content-encoding']).toBeUndefined();
    expect(zipped.headers['content-encoding']).toBe('gzip');
    expect(gunzipSync(zipped.bytes).equals(plain.bytes)).toBe(true);
    expect(zipped.bytes.length).toBeLessThan(plain.bytes.length);
    const encodingOf = (acceptEncoding: string) =>
      serve('/dashboard/assets/app-ABCDEFGH.js', { acceptEncoding }).headers['content-encoding'];
    expect(encodingOf('gzip;q=0')).toBeUndefined();
    expect(encodingOf('identity')).toBeUndefined();
    // RFC 9110 §12.5.3: a named gzip;q=0 wins over `*`; `*` alone takes it.
    expect(encodingOf('gzip;q=0, *')).toBeUndefined();
    expect(encodingOf('*')).toBe('gzip');
    for (const file of [plain, zipped]) expect(file.headers.vary).toBe('Origin, Accept-Encoding');
    // Each representation its own strong validator (RFC 9110 §8.8.3), and a 304 names no encoding.
    expect(zipped.headers.etag).not.toBe(plain.headers.etag);
    const revalidated = serve('/dashboard/assets/app-ABCDEFGH.js', {
      acceptEncoding: 'gzip',
      ifNoneMatch: zipped.headers.etag!,
    });
    expect(revalidated.status).toBe(304);
    expect(revalidated.headers['content-encoding']).toBeUndefined();
    expect(serve('/dashboard/assets/app-ABCDEFGH.js', { ifNoneMatch: zipped.headers.etag! }).status).toBe(
      200,
    );
  });

  it('answers 304 when If-None-Match names the ETag (strong, weak, in a list, or *)', () => {
    const { etag } = serve('/dashboard', {}).headers;
    for (const ifNoneMatch of [etag!, `W/${etag}`, `"other", ${etag}`, '*']) {
      const file = serve('/dashboard', { ifNoneMatch });
      expect(file.status).toBe(304);
      expect(file.bytes.length).toBe(0);
    }
    expect(serve('/dashboard', { ifNoneMatch: '"other"' }).status).toBe(200);
  });
});
