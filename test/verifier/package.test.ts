import { execFile } from 'node:child_process';
import { mkdir, readFile, rm } from 'node:fs/promises';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { build } from 'esbuild';
import { UnsecuredJWT } from 'jose';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { signJwt } from '../../shared/crypto/jwt.ts';
import { LocalSigner } from '../../shared/crypto/local-signer.ts';
import { type JwksServer, startJwksServer } from '../support/jwks-server.ts';
import { testKeyPair } from '../support/keys.ts';

/**
 * The package as a consumer gets it: built like its `build` script (esbuild, platform neutral, so a
 * `node:` import would fail the build) and imported by plain Node (no tsx) with only its global
 * fetch and Web Crypto; and its package.json's promises.
 */
const root = join(import.meta.dirname, '..', '..');
// Under node_modules/ so the build's `jose` import resolves as in a consumer's project.
const outDir = join(root, 'node_modules', '.cache', 'doorcode', `verifier-dist-${process.pid}`);
const ISSUER = 'https://auth.doorcode.test';
const signer = new LocalSigner(testKeyPair().pem);
let jwks: JwksServer;

beforeAll(async () => {
  jwks = await startJwksServer(await signer.publicKeys());
  await mkdir(outDir, { recursive: true });
  await build({
    entryPoints: ['index', 'express', 'hono'].map((name) => join(root, 'verifier', 'src', `${name}.ts`)),
    bundle: true,
    splitting: true,
    format: 'esm',
    platform: 'neutral',
    target: 'es2022',
    packages: 'external',
    outdir: outDir,
    logLevel: 'silent',
  });
});
afterAll(async () => {
  await jwks?.close();
  await rm(outDir, { recursive: true, force: true });
});

/** Verifies `token` with the built package in a plain `node` process; its result as JSON. */
async function verifyInNode(token: string) {
  const script = `
    const { createVerifier } = await import(${JSON.stringify(join(outDir, 'index.js'))});
    const verifier = createVerifier({ issuer: ${JSON.stringify(ISSUER)}, jwksUrl: ${JSON.stringify(jwks.url)} });
    console.log(JSON.stringify(await verifier.verifySession(process.env.TOKEN)));`;
  const { stdout } = await promisify(execFile)(process.execPath, ['--input-type=module', '-e', script], {
    env: { PATH: process.env.PATH ?? '', TOKEN: token },
  });
  return JSON.parse(stdout);
}

describe('@doorcode/verifier as built', () => {
  it('verifies a session token in plain Node with global fetch and Web Crypto, and refuses alg none', async () => {
    // Prepare
    const iat = Math.floor(Date.now() / 1000);
    const claims = { iss: ISSUER, sub: 'usr_1', email: 'a@example.test', sid: 'ses_1', aud: 'platform' };
    const token = await signJwt(signer, { ...claims, jti: 'jti_1', iat, exp: iat + 600 });
    const unsigned = new UnsecuredJWT({ ...claims, jti: 'jti_2', iat, exp: iat + 600 }).encode();

    // Act
    const valid = await verifyInNode(token);
    const none = await verifyInNode(unsigned);

    // Assess
    expect(valid.ok).toBe(true);
    expect(valid.claims.sub).toBe('usr_1');
    expect(none).toMatchObject({ ok: false, code: 'TOKEN_ALGORITHM' });
  });

  it('declares jose as its one dependency, express, its types and hono as optional peers, ESM and Node 20+', async () => {
    // Act
    const manifest = JSON.parse(await readFile(join(root, 'verifier', 'package.json'), 'utf8'));

    // Assess
    expect(manifest.name).toBe('@doorcode/verifier');
    expect(manifest.type).toBe('module');
    expect(manifest.engines).toEqual({ node: '>=20' });
    expect(Object.keys(manifest.dependencies)).toEqual(['jose']);
    expect(manifest.peerDependenciesMeta).toEqual({
      '@types/express': { optional: true },
      express: { optional: true },
      hono: { optional: true },
    });
    expect(Object.keys(manifest.peerDependencies)).toEqual(Object.keys(manifest.peerDependenciesMeta));
    expect(Object.keys(manifest.exports)).toEqual(['.', './express', './hono']);
  });
});
