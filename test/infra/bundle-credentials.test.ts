import { execFile } from 'node:child_process';
import { generateKeyPairSync } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { promisify } from 'node:util';
import { build, type Metafile } from 'esbuild';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type AwsStub, startAwsStub } from '../../bench/aws-stub.ts';
import { esbuildOptions } from '../../lib/bundling.ts';
import { routes } from '../../shared/routes.ts';

// A deployed bundle's AWS SDK takes its credentials from the environment alone (lib/bundling.ts,
// shared/adapters/env-credentials.ts): what Lambda sets for the execution role
// (https://docs.aws.amazon.com/lambda/latest/dg/configuration-envvars.html#configuration-envvars-runtime).
// The status route calls DynamoDB and KMS; a loopback stand-in for both reads who signed each call.

const repoRoot = join(import.meta.dirname, '..', '..');
const work = mkdtempSync(join(tmpdir(), 'doorcode-credentials-'));
const route = { id: 'status', ...routes.status } as const;

let bundle: string;
let metafile: Metafile;
let stub: AwsStub;

beforeAll(async () => {
  bundle = join(work, 'index.mjs');
  ({ metafile } = await build({
    ...esbuildOptions(route.access, route.auth),
    absWorkingDir: repoRoot,
    entryPoints: [route.entry],
    outfile: bundle,
    metafile: true,
    logLevel: 'silent',
  }));
  stub = await startAwsStub('ok', generateKeyPairSync('rsa', { modulusLength: 2048 }).privateKey);
}, 60_000);

afterAll(async () => {
  await stub?.close();
  rmSync(work, { recursive: true, force: true });
});

// Temporary credentials as Lambda gives them: an ASIA key id with a session token.
const lambdaCredentials = {
  AWS_ACCESS_KEY_ID: 'ASIAEXAMPLEBUNDLE01',
  AWS_SECRET_ACCESS_KEY: 'bundle-check-secret-access-key',
  AWS_SESSION_TOKEN: 'bundle-check-session-token',
};

// A script for a plain Node process: import the bundle and answer one API Gateway v2 event.
const invokeScript = `
const { handler } = await import(process.env.BUNDLE_URL);
const event = {
  version: '2.0', routeKey: 'GET /status', rawPath: '/status', rawQueryString: '', headers: {}, isBase64Encoded: false,
  requestContext: { requestId: 'credentials-check', http: { method: 'GET', path: '/status', sourceIp: '127.0.0.1' } },
};
const result = await handler(event, { awsRequestId: 'credentials-check', getRemainingTimeInMillis: () => 10000 });
process.stdout.write(JSON.stringify(result));
`;

async function invoke(credentials: Record<string, string>): Promise<{ statusCode: number; body: string }> {
  const { stdout } = await promisify(execFile)(
    process.execPath,
    ['--input-type=module', '--eval', invokeScript],
    {
      cwd: work,
      env: {
        PATH: process.env.PATH,
        // No shared files to fall back on: the chain must not need them.
        HOME: work,
        AWS_EC2_METADATA_DISABLED: 'true',
        AWS_REGION: 'eu-west-1',
        AWS_ENDPOINT_URL: stub.endpoint,
        AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED: 'true',
        TABLE_NAME: 'doorcode-credentials-check',
        ISSUER: 'https://auth.example.com',
        MAIL_FROM: 'no-reply@example.com',
        KMS_KEY_IDS: 'alias/credentials-check',
        LOG_LEVEL: 'silent',
        BUNDLE_URL: pathToFileURL(bundle).href,
        ...credentials,
      },
    },
  );
  return JSON.parse(stdout) as { statusCode: number; body: string };
}

describe("a deployed bundle's AWS credentials", () => {
  it('signs every call with the access key and session token of the environment', async () => {
    stub.reset();
    const result = await invoke(lambdaCredentials);
    expect(result.statusCode).toBe(200);
    const signed = stub.signatures();
    expect(new Set(signed.map((call) => call.service))).toEqual(new Set(['dynamodb', 'kms']));
    for (const call of signed) {
      expect(call).toEqual({
        service: call.service,
        accessKeyId: lambdaCredentials.AWS_ACCESS_KEY_ID,
        region: 'eu-west-1',
        securityToken: lambdaCredentials.AWS_SESSION_TOKEN,
      });
    }
  });

  it('signs without a session token when the environment has none', async () => {
    stub.reset();
    const { AWS_SESSION_TOKEN: _, ...longTerm } = lambdaCredentials;
    expect((await invoke(longTerm)).statusCode).toBe(200);
    expect(stub.signatures().length).toBeGreaterThan(0);
    for (const call of stub.signatures()) expect(call.securityToken).toBeUndefined();
  });

  it('holds the environment provider and none of the rest of the default chain', () => {
    const inputs = Object.keys(metafile.inputs);
    expect(inputs.some((path) => path.endsWith('shared/adapters/env-credentials.ts'))).toBe(true);
    expect(inputs.some((path) => path.includes('node_modules/@aws-sdk/credential-provider-env/'))).toBe(true);
    for (const pkg of [
      '@aws-sdk/credential-provider-node',
      '@aws-sdk/credential-provider-ini',
      '@aws-sdk/credential-provider-sso',
      '@aws-sdk/credential-provider-process',
      '@aws-sdk/credential-provider-web-identity',
      '@aws-sdk/credential-provider-http',
      '@aws-sdk/nested-clients',
      '@smithy/credential-provider-imds',
    ]) {
      expect({ pkg, held: inputs.some((path) => path.includes(`node_modules/${pkg}/`)) }).toEqual({
        pkg,
        held: false,
      });
    }
  });

  it('signs no call without credentials in the environment', async () => {
    stub.reset();
    const result = await invoke({});
    // The status report says `down` for each dependency it could not reach; nothing was sent unsigned.
    expect(result.statusCode).toBe(200);
    expect(stub.signatures()).toEqual([]);
  });
});
