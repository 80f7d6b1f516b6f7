/**
 * `npm run bench -- bundles [--runs=N] [--routes=id,id] [--errors=id,id]`: every route's bundle
 * (the options of lib/bundling.ts), its size, cold import and first invocation, beside hello-world
 * and beside its floor (bench/floor.ts), as medians of paired ratios from interleaved fresh
 * processes; and the same route with NODE_OPTIONS=--enable-source-maps, on its usual path and, for
 * the `--errors` routes, on the unexpected-error path (every AWS call refused), where a stack is formatted.
 */
import { generateKeyPairSync } from 'node:crypto';
import { writeFile } from 'node:fs/promises';
import { availableParallelism } from 'node:os';
import { join, relative } from 'node:path';
import { version as esbuildVersion } from 'esbuild';
import { bundling } from '../lib/bundling.ts';
import { type AuthMode, type RouteAccess, routeList } from '../shared/routes.ts';
import { startAwsStub } from './aws-stub.ts';
import { type BundleResult, type BundleSource, bundleEntry } from './bundle.ts';
import { compositionSection } from './composition.ts';
import { BENCH_ISSUER, BENCH_ORIGIN, benchEvent, benchToken } from './events.ts';
import { declaredServices, floorSource } from './floor.ts';
import {
  coldStartCpuMs,
  coldStartMs,
  type Group,
  importCpuMs,
  importMs,
  interleave,
  invokeCpuMs,
  invokeMs,
  type Variant,
} from './interleave.ts';
import { mapLimit } from './map-limit.ts';
import { bundleTable, phaseTable, sourceMapTable } from './table.ts';
import type { BenchContext, Benchmark } from './types.ts';

function positiveInt(raw: string | undefined, name: string, fallback: number): number {
  if (raw === undefined || raw === '') return fallback;
  const n = Number(raw);
  if (!Number.isInteger(n) || n < 1) throw new Error(`${name} must be a positive integer, got ${raw}`);
  return n;
}

const list = (raw: string | undefined, fallback: string[]) =>
  raw === undefined ? fallback : raw.split(',').filter(Boolean);

/** What Lambda gives every function, pointed at the loopback stub; and the service's own settings. */
function childEnv(endpoint: string): Record<string, string> {
  return {
    AWS_REGION: 'us-east-1',
    AWS_ACCESS_KEY_ID: 'bench',
    AWS_SECRET_ACCESS_KEY: 'bench',
    AWS_ENDPOINT_URL: endpoint,
    AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED: 'true',
    TABLE_NAME: 'bench',
    ISSUER: BENCH_ISSUER,
    MAIL_FROM: 'no-reply@bench.test',
    PLATFORM_ORIGINS: BENCH_ORIGIN,
    KMS_KEY_IDS: 'alias/bench',
    CODE_KEY_SECRET_ARN: 'arn:aws:secretsmanager:us-east-1:123456789012:secret:bench-AbCdEf',
    LOG_LEVEL: 'info',
  };
}

const floorIdOf = (access: RouteAccess) => `_floor-${declaredServices(access).join('+') || 'none'}`;

const withSourceMaps = (env: Record<string, string>) => ({ ...env, NODE_OPTIONS: '--enable-source-maps' });

export const bundlesBenchmark: Benchmark = {
  name: 'bundles',
  description:
    'Size, cold import and first invocation of every route bundle beside hello-world and its floor',
  async run({ repoRoot, outDir, options }: BenchContext): Promise<void> {
    const runs = positiveInt(options.runs ?? process.env.BENCH_RUNS, 'runs', 7);
    const wanted = list(
      options.routes,
      routeList.map((r) => r.id),
    );
    const errorRoutes = list(options.errors, ['jwks', 'codeStart']);
    const routes = routeList.filter((r) => wanted.includes(r.id));

    const floors = new Map(routes.map((r) => [floorIdOf(r.access), r.access]));
    const jobs: Array<{ id: string; source: BundleSource; access: RouteAccess; auth?: AuthMode }> = [
      {
        id: '_hello',
        source: { entry: relative(repoRoot, join(import.meta.dirname, 'hello.ts')) },
        access: {},
      },
      ...[...floors].map(([id, access]) => ({
        id,
        source: { stdin: floorSource(declaredServices(access)) },
        access,
      })),
      ...routes.map((r) => ({ id: r.id, source: { entry: r.entry }, access: r.access, auth: r.auth })),
    ];
    const t0 = performance.now();
    const built = new Map<string, BundleResult>();
    await mapLimit(jobs, Math.max(2, availableParallelism()), async (job) => {
      built.set(job.id, await bundleEntry(repoRoot, job.source, job.access, join(outDir, job.id), job.auth));
    });
    const buildMs = performance.now() - t0;
    for (const [id, bundle] of built)
      for (const w of bundle.warnings) console.warn(`esbuild warning (${id}): ${w}`);

    const { privateKey } = generateKeyPairSync('rsa', { modulusLength: 2048 });
    const ok = await startAwsStub('ok', privateKey);
    const fail = await startAwsStub('fail', privateKey);
    const bearer = await benchToken(
      privateKey.export({ format: 'pem', type: 'pkcs8' }).toString(),
      Date.now(),
    );
    const variant = (name: string, id: string, stub = ok, env = childEnv(stub.endpoint)): Variant => ({
      name,
      file: built.get(id)!.file,
      stub,
      env,
      samples: [],
    });

    const groups: Group[] = routes.map((route) => {
      const floor = variant('floor', floorIdOf(route.access));
      const variants = [
        variant('route', route.id),
        floor,
        variant('hello', '_hello'),
        variant('route+maps', route.id, ok, withSourceMaps(childEnv(ok.endpoint))),
        ...(errorRoutes.includes(route.id)
          ? [
              variant('error', route.id, fail),
              variant('error+maps', route.id, fail, withSourceMaps(childEnv(fail.endpoint))),
            ]
          : []),
      ];
      return {
        event: benchEvent(route, bearer),
        variants,
        // The floor calls the services the route's own first request called, no more.
        afterWarmup: (v) => {
          if (v.name !== 'route') return;
          const called = Object.entries(v.calls ?? {}).filter(([, n]) => n > 0);
          floor.env = { ...floor.env, FLOOR_CALLS: called.map(([s]) => s).join(',') };
        },
      };
    });

    const t1 = performance.now();
    try {
      await interleave(groups, runs);
    } finally {
      await ok.close();
      await fail.close();
    }
    const sampleMs = performance.now() - t1;
    const processes = groups.reduce((n, g) => n + g.variants.length * (runs + 1), 0);

    const rows = routes.map((route, i) => ({
      route,
      bundle: built.get(route.id)!,
      floorBundle: built.get(floorIdOf(route.access))!,
      variants: groups[i]!.variants,
    }));
    const largest = rows.reduce<(typeof rows)[number] | undefined>(
      (a, r) => (!a || r.bundle.bytes > a.bundle.bytes ? r : a),
      undefined,
    );
    const markdown = [
      `## Route bundles (esbuild ${esbuildVersion}, target ${bundling.target}, node ${process.version}, ${runs} runs)`,
      bundleTable(rows, built.get('_hello')!),
      'Each sample is a fresh `node` process: `await import(bundle)`, then one call of its `handler` with the ' +
        'route’s representative API Gateway v2 event (bench/events.ts) against a loopback AWS stub ' +
        '(bench/aws-stub.ts). The floor constructs only the SDK clients the route declares, and its handler ' +
        'calls once each service the route’s first request called (bench/floor.ts). Times are medians; ratios ' +
        'are medians of per-round ratios, the rounds interleaving route, floor, hello-world, ... one process at a time.',
      '### Cold import (goal: ≤ 1.10× floor)',
      phaseTable(rows, importMs, importCpuMs, 1.1),
      '### First invocation (goal: ≤ 1.2× floor)',
      phaseTable(rows, invokeMs, invokeCpuMs, 1.2),
      '### Cold start (import + first invocation)',
      phaseTable(rows, coldStartMs, coldStartCpuMs),
      '### Source maps (`NODE_OPTIONS=--enable-source-maps`)',
      sourceMapTable(rows),
      largest ? compositionSection(largest.route.id, largest.bundle) : '',
    ]
      .filter((b) => b !== '')
      .join('\n\n');
    console.log(markdown);
    console.log(
      `\nbundled ${jobs.length} entries in ${(buildMs / 1000).toFixed(1)} s; ` +
        `${processes} processes in ${(sampleMs / 1000).toFixed(1)} s`,
    );
    const mdFile = join(outDir, 'bundles.md');
    await writeFile(mdFile, `${markdown}\n`);
    console.log(
      `wrote ${relative(repoRoot, mdFile)} and bundles in ${relative(repoRoot, outDir)}/<id>/index.mjs`,
    );
  },
};
