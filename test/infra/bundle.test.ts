import { execFileSync, spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
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

let asset: string | undefined;

/** Bundles one route exactly as the stack does (local esbuild, no Docker) and returns its asset directory. */
function bundleRoute(): string {
  if (asset) return asset;
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
  asset = join(assembly.directory, assets[0]!);
  return asset;
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

const env = {
  PATH: process.env.PATH,
  TABLE_NAME: 'doorcode-bundle-check',
  ISSUER: 'https://auth.example.com',
  MAIL_FROM: 'no-reply@example.com',
  LOG_LEVEL: 'silent',
  AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED: 'true',
};

describe('bundling', () => {
  it('bundles a route offline into a minified ESM file with a source map that answers a request', () => {
    const dir = bundleRoute();
    const bundle = join(dir, 'index.mjs');
    expect(existsSync(bundle)).toBe(true);
    // Positions only (lib/bundling.ts): the sources themselves would triple its size.
    expect(JSON.parse(readFileSync(join(dir, 'index.mjs.map'), 'utf8')).sourcesContent).toBeUndefined();
    const code = readFileSync(bundle, 'utf8');
    expect(code).toContain('//# sourceMappingURL=index.mjs.map');
    // Minified: long lines (template literals keep a few newlines).
    expect(code.length / code.split('\n').length).toBeGreaterThan(1000);

    const output = execFileSync(process.execPath, ['--input-type=module', '--eval', invokeScript], {
      cwd: work,
      encoding: 'utf8',
      env: {
        ...env,
        BUNDLE_URL: pathToFileURL(bundle).href,
        LOCAL_SIGNING_KEY_FILE: join(work, 'signing-key.pem'),
      },
    });
    const result = JSON.parse(output) as { statusCode: number; body: string };
    expect(result.statusCode).toBe(200);
    expect(JSON.parse(result.body).keys).toEqual([expect.objectContaining({ kty: 'RSA', alg: 'RS256' })]);
  });

  it('logs an unexpected error with its stack in source positions, without --enable-source-maps', () => {
    const bundle = join(bundleRoute(), 'index.mjs');
    const badKey = join(work, 'not-a-key.pem');
    writeFileSync(badKey, 'not a key');
    // The signer cannot be built: the chain answers 500 and writes the error to stderr.
    const run = spawnSync(process.execPath, ['--input-type=module', '--eval', invokeScript], {
      cwd: work,
      encoding: 'utf8',
      env: { ...env, BUNDLE_URL: pathToFileURL(bundle).href, LOCAL_SIGNING_KEY_FILE: badKey },
    });
    expect(JSON.parse(run.stdout).statusCode).toBe(500);
    const logged = run.stderr
      .split('\n')
      .filter((line) => line.startsWith('{'))
      .map((line) => JSON.parse(line) as { stack?: string });
    expect(logged.find((entry) => entry.stack)?.stack).toMatch(/shared\/crypto\/local-signer\.ts:\d+:\d+/);
  });
});
