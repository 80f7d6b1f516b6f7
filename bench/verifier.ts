/**
 * `npm run bench -- verifier [--verifications=N] [--rounds=R]`: verifications per second of the
 * verifier package (verifier/) beside raw `jose.jwtVerify` of the same session token with the same
 * key and the same checks (RS256, issuer, audience, typ), in the same process, as interleaved rounds
 * (41 short rounds of 500, the order flipping each round, so both sides of a pair see the same load
 * on a shared machine); the ratio is the median of the paired ratios (goal ≥ 90%). Then the
 * size of the verifier's browser/edge bundle (esbuild, minified), with jose and without.
 */
import { gzipSync } from 'node:zlib';
import { build } from 'esbuild';
import { importJWK, jwtVerify } from 'jose';
import { signJwt } from '../shared/crypto/jwt.ts';
import { generateLocalKeyPem, LocalSigner } from '../shared/crypto/local-signer.ts';
import { createVerifier } from '../verifier/src/index.ts';
import type { BenchContext, Benchmark } from './types.ts';

const ISSUER = 'https://auth.bench.test';
const GOAL = 0.9;

function positiveInt(raw: string | undefined, name: string, fallback: number): number {
  if (raw === undefined || raw === '') return fallback;
  const n = Number(raw);
  if (!Number.isInteger(n) || n < 1) throw new Error(`${name} must be a positive integer, got ${raw}`);
  return n;
}

interface Rate {
  /** Verifications per second of wall time. */
  wall: number;
  /** Verifications per second of the process's CPU time (less sensitive to other load on the machine). */
  cpu: number;
}

/** `verify` run `count` times one after another. */
async function rate(count: number, verify: () => Promise<unknown>): Promise<Rate> {
  const cpuStart = process.cpuUsage();
  const start = performance.now();
  for (let i = 0; i < count; i += 1) await verify();
  const wallSeconds = (performance.now() - start) / 1000;
  const cpu = process.cpuUsage(cpuStart);
  return { wall: count / wallSeconds, cpu: count / ((cpu.user + cpu.system) / 1e6) };
}

const median = (values: number[]) => {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[middle]! : (sorted[middle - 1]! + sorted[middle]!) / 2;
};

async function bundleSize(repoRoot: string, external: string[]) {
  const result = await build({
    entryPoints: [`${repoRoot}/verifier/src/index.ts`],
    bundle: true,
    minify: true,
    format: 'esm',
    // Neutral: a node: import in the core would fail this build (and the dependency-cruiser rule).
    platform: 'neutral',
    mainFields: ['module', 'main'],
    conditions: ['worker', 'browser', 'import'],
    external,
    write: false,
    logLevel: 'silent',
  });
  const code = result.outputFiles[0]!.contents;
  return { bytes: code.length, gzip: gzipSync(code).length };
}

export const verifierBenchmark: Benchmark = {
  name: 'verifier',
  description: 'Verifier package: verifications per second beside raw jose.jwtVerify, and its bundle size',
  async run({ repoRoot, options }: BenchContext): Promise<void> {
    const count = positiveInt(options.verifications, 'verifications', 500);
    const rounds = positiveInt(options.rounds, 'rounds', 41);

    const signer = new LocalSigner(generateLocalKeyPem());
    const keys = await signer.publicKeys();
    const iat = Math.floor(Date.now() / 1000);
    const token = await signJwt(signer, {
      iss: ISSUER,
      sub: 'usr_bench',
      email: 'bench@example.test',
      sid: 'ses_bench',
      aud: 'platform',
      jti: 'jti_bench',
      iat,
      exp: iat + 3600,
    });
    let fetches = 0;
    const verifier = createVerifier({
      issuer: ISSUER,
      fetch: async () => {
        fetches += 1;
        return new Response(JSON.stringify({ keys }), { headers: { 'content-type': 'application/json' } });
      },
    });
    const key = await importJWK(keys[0]!, 'RS256');
    const raw = () =>
      jwtVerify(token, key, { algorithms: ['RS256'], issuer: ISSUER, audience: 'platform', typ: 'JWT' });
    const ours = async () => {
      const result = await verifier.verifySession(token);
      if (!result.ok) throw new Error(`the bench token was refused: ${result.code}`);
    };

    // Warm-up: JIT, the key import, the JWKS fetch.
    await rate(Math.min(count, 500), raw);
    await rate(Math.min(count, 500), ours);

    const rawRates: Rate[] = [];
    const ourRates: Rate[] = [];
    for (let round = 0; round < rounds; round += 1) {
      if (round % 2 === 0) {
        rawRates.push(await rate(count, raw));
        ourRates.push(await rate(count, ours));
      } else {
        ourRates.push(await rate(count, ours));
        rawRates.push(await rate(count, raw));
      }
    }
    const ratioOf = (of: keyof Rate) => median(ourRates.map((value, i) => value[of] / rawRates[i]![of]));
    const ratio = ratioOf('wall');
    const perSecond = (rates: Rate[], of: keyof Rate) =>
      `${Math.round(median(rates.map((value) => value[of]))).toLocaleString('en-US')}/s`;
    console.log(`${rounds} rounds of ${count} sequential verifications of one RS256 session token\n`);
    console.log('| | verifications/s (wall, median) | verifications/s of CPU time (median) |');
    console.log('|---|---|---|');
    console.log(
      `| raw \`jose.jwtVerify\` (imported key) | ${perSecond(rawRates, 'wall')} | ${perSecond(rawRates, 'cpu')} |`,
    );
    console.log(
      `| \`verifier.verifySession\` | ${perSecond(ourRates, 'wall')} | ${perSecond(ourRates, 'cpu')} |`,
    );
    console.log(
      `\nratio ${(ratio * 100).toFixed(1)}% of raw by wall time, ${(ratioOf('cpu') * 100).toFixed(1)}% by CPU time ` +
        `(median of paired rounds; goal ≥ ${GOAL * 100}%: ${ratio >= GOAL ? 'met' : 'MISSED'}); JWKS fetches: ${fetches}`,
    );

    const withJose = await bundleSize(repoRoot, []);
    const withoutJose = await bundleSize(repoRoot, ['jose']);
    const kb = (bytes: number) => `${(bytes / 1024).toFixed(1)} KB`;
    console.log('\n| verifier bundle (esm, minified, platform neutral) | size | gzipped |');
    console.log('|---|---|---|');
    console.log(`| with jose | ${kb(withJose.bytes)} | ${kb(withJose.gzip)} |`);
    console.log(`| jose external | ${kb(withoutJose.bytes)} | ${kb(withoutJose.gzip)} |`);
  },
};
