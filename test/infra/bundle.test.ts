import { execFileSync } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { App, Stack } from 'aws-cdk-lib';
import { Role, ServicePrincipal } from 'aws-cdk-lib/aws-iam';
import { LogGroup } from 'aws-cdk-lib/aws-logs';
import { afterAll, describe, expect, it } from 'vitest';
import { RouteFunction } from '../../lib/route-function.ts';
import { routes } from '../../shared/routes.ts';

const work = mkdtempSync(join(tmpdir(), 'doorcode-bundle-'));
afterAll(() => rmSync(work, { recursive: true, force: true }));

/** Bundles one route exactly as the stack does (local esbuild, no Docker) and returns its asset directory. */
function bundleRoute(): string {
  const app = new App({ outdir: join(work, 'cdk.out') });
  const stack = new Stack(app, 'BundleCheck');
  new RouteFunction(stack, 'RouteJwks', {
    route: { id: 'jwks', ...routes.jwks },
    serviceName: 'doorcode',
    environment: {},
    role: new Role(stack, 'Role', { assumedBy: new ServicePrincipal('lambda.amazonaws.com') }),
    logGroup: new LogGroup(stack, 'Logs'),
  });
  const assembly = app.synth();
  const assets = readdirSync(assembly.directory).filter((name) => name.startsWith('asset.'));
  expect(assets).toHaveLength(1);
  return join(assembly.directory, assets[0]!);
}

// A script for a plain Node process: import the bundle and answer one API Gateway v2 event.
const invokeScript = `
const { handler } = await import(process.env.BUNDLE_URL);
const event = {
  version: '2.0', routeKey: 'GET /.well-known/jwks.json', rawPath: '/.well-known/jwks.json', rawQueryString: '',
  headers: {}, isBase64Encoded: false,
  requestContext: { requestId: 'bundle-check', http: { method: 'GET', path: '/.well-known/jwks.json', sourceIp: '127.0.0.1' } },
};
const result = await handler(event, { awsRequestId: 'bundle-check', getRemainingTimeInMillis: () => 10000 });
process.stdout.write(JSON.stringify(result));
`;

describe('bundling', () => {
  it('bundles a route offline into a minified ESM file with a source map that answers a request', () => {
    const asset = bundleRoute();
    const bundle = join(asset, 'index.mjs');
    expect(existsSync(bundle)).toBe(true);
    expect(existsSync(join(asset, 'index.mjs.map'))).toBe(true);
    const code = readFileSync(bundle, 'utf8');
    expect(code).toContain('//# sourceMappingURL=index.mjs.map');
    // Minified: long lines (template literals keep a few newlines).
    expect(code.length / code.split('\n').length).toBeGreaterThan(1000);

    const output = execFileSync(process.execPath, ['--input-type=module', '--eval', invokeScript], {
      cwd: work,
      encoding: 'utf8',
      env: {
        PATH: process.env.PATH,
        BUNDLE_URL: pathToFileURL(bundle).href,
        TABLE_NAME: 'doorcode-bundle-check',
        ISSUER: 'https://auth.example.com',
        MAIL_FROM: 'no-reply@example.com',
        LOCAL_SIGNING_KEY_FILE: join(work, 'signing-key.pem'),
        LOG_LEVEL: 'silent',
        AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED: 'true',
      },
    });
    const result = JSON.parse(output) as { statusCode: number; body: string };
    expect(result.statusCode).toBe(200);
    expect(JSON.parse(result.body).keys).toEqual([expect.objectContaining({ kty: 'RSA', alg: 'RS256' })]);
  });
});
