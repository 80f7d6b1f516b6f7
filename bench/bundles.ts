/**
 * `npm run bench -- bundles [--runs=N] [--routes=id,id] [--errors=id,id]`: every route's bundle
 * (the options of lib/bundling.ts), its size, cold import and first invocation, beside hello-world,
 * beside its floor (bench/floor.ts) and beside a peer, OpenAuth's issuer bundled with the same options
 * (bench/floor/openauth-issuer.ts), as medians of paired ratios from interleaved fresh processes; and
 * the same route with NODE_OPTIONS=--enable-source-maps, on its usual path and, for the `--errors`
 * routes, on the unexpected-error path (every AWS call refused), where a stack is formatted.
 *
 * Each route's first request is a successful one: its call-budget scenario, prepared on the real
 * service over DynamoDB Local (bench/first-requests.ts), whose table its first run reads and writes
 * through the stub and whose answers the later runs get back from the stub's recording.
 */
import { generateKeyPairSync } from 'node:crypto';
import { writeFile } from 'node:fs/promises';
import { availableParallelism } from 'node:os';
import { join, relative } from 'node:path';
import { version as esbuildVersion } from 'esbuild';
import { bundling } from '../lib/bundling.ts';
import { type AdapterPort, adapters, declares } from '../shared/route-access.ts';
import { type AuthMode, type RouteAccess, type RouteSpec, routeList } from '../shared/routes.ts';
import { type DynamoDbSource, type Recording, startAwsStub } from './aws-stub.ts';
import { type BundleResult, type BundleSource, bundleEntry } from './bundle.ts';
import { compositionSection } from './composition.ts';
import { eventOf, peerEvent } from './events.ts';
import {
  type FirstRequests,
  type ProviderRecording,
  type ProviderSource,
  startFirstRequests,
} from './first-requests.ts';
import { declaredServices, floorSource } from './floor.ts';
import {
  coldStartCpuMs,
  coldStartMs,
  type Group,
  interleave,
  invokeCpuMs,
  invokeMs,
  type Variant,
} from './interleave.ts';
import { mapLimit } from './map-limit.ts';
import {
  type BenchRow,
  bundleTable,
  importGoals,
  importSummary,
  importTable,
  phaseTable,
  type RouteGroup,
  sourceMapTable,
} from './table.ts';
import type { BenchContext, Benchmark } from './types.ts';

const PEER = 'OpenAuth issuer';

function positiveInt(raw: string | undefined, name: string, fallback: number): number {
  if (raw === undefined || raw === '') return fallback;
  const n = Number(raw);
  if (!Number.isInteger(n) || n < 1) throw new Error(`${name} must be a positive integer, got ${raw}`);
  return n;
}

const list = (raw: string | undefined, fallback: string[]) =>
  raw === undefined ? fallback : raw.split(',').filter(Boolean);

/** What Lambda gives every function, pointed at the loopback stub; and the service's own settings. */
function childEnv(endpoint: string, service: Readonly<Record<string, string>>): Record<string, string> {
  return {
    AWS_REGION: 'us-east-1',
    AWS_ACCESS_KEY_ID: 'bench',
    AWS_SECRET_ACCESS_KEY: 'bench',
    AWS_SESSION_TOKEN: 'bench',
    AWS_ENDPOINT_URL: endpoint,
    AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED: 'true',
    ...service,
    KMS_KEY_IDS: 'alias/bench',
    CODE_KEY_SECRET_ARN: 'arn:aws:secretsmanager:us-east-1:123456789012:secret:bench-AbCdEf',
    SEALING_KEY_ID: 'alias/bench-seal',
    LOG_LEVEL: 'info',
  };
}

const floorIdOf = (access: RouteAccess) => `_floor-${declaredServices(access).join('+') || 'none'}`;

const withSourceMaps = (env: Record<string, string>) => ({ ...env, NODE_OPTIONS: '--enable-source-maps' });

/** The areas of functions/ whose routes manage tenancy (docs/api.md: organizations to configuration). */
const managementAreas = new Set([
  'organizations',
  'invitations',
  'applications',
  'api-keys',
  'insights',
  'impersonation',
  'audit',
  'users',
  'tenant-organizations',
  'configuration',
]);

function groupOf(route: RouteSpec & { readonly id: string }): RouteGroup {
  if (!(Object.keys(adapters) as AdapterPort[]).some((port) => declares(route.access, port)))
    return 'no AWS access';
  if (route.id === 'mcp') return 'MCP';
  if (route.auth === 'manage' || managementAreas.has(route.entry.split('/')[1] ?? '')) return 'management';
  return 'sign-in, session, OAuth';
}

/** A request to the route's path with placeholders, for a route whose scenario could not be prepared. */
const bareEvent = (route: RouteSpec) =>
  eventOf(route, { method: route.method, path: route.path.replace(/\{[^}]+\}/g, 'x'), options: {} });

export const bundlesBenchmark: Benchmark = {
  name: 'bundles',
  description:
    'Size, cold import and first invocation of every route bundle beside hello-world, its floor and OpenAuth',
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
      {
        id: '_openauth',
        source: { entry: relative(repoRoot, join(import.meta.dirname, 'floor', 'openauth-issuer.ts')) },
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
    let world: FirstRequests | undefined;
    try {
      world = await startFirstRequests(
        ok.endpoint,
        privateKey.export({ format: 'pem', type: 'pkcs8' }).toString(),
      );
      const service = world.env;
      const variant = (
        name: string,
        id: string,
        stub = ok,
        env = childEnv(stub.endpoint, service),
      ): Variant => ({
        name,
        file: built.get(id)!.file,
        stub,
        env,
        samples: [],
      });

      const scenarios = new Map<string, string>();
      const recordings = new Map<string, { recording: Recording; providerRecording: ProviderRecording }>();
      const groups: Group[] = routes.map((route) => {
        const floor = variant('floor', floorIdOf(route.access));
        const recording: Recording = { answers: [], misses: 0 };
        const providerRecording: ProviderRecording = { answers: [], misses: 0 };
        recordings.set(route.id, { recording, providerRecording });
        // The route's DynamoDB and provider calls: through to the prepared table and the provider on its
        // first run, replayed after.
        let source: DynamoDbSource = { kind: 'empty' };
        let providerSource: ProviderSource = { kind: 'through' };
        const routeVariant = (name: string, env?: Record<string, string>): Variant => ({
          ...variant(name, route.id, ok, env),
          setup: () => {
            ok.useDynamoDb(source);
            world!.useProvider(providerSource);
          },
        });
        const variants = [
          routeVariant('route'),
          floor,
          variant('hello', '_hello'),
          { ...variant('peer', '_openauth'), event: peerEvent },
          routeVariant('route+maps', withSourceMaps(childEnv(ok.endpoint, service))),
          ...(errorRoutes.includes(route.id)
            ? [
                variant('error', route.id, fail),
                variant('error+maps', route.id, fail, withSourceMaps(childEnv(fail.endpoint, service))),
              ]
            : []),
        ];
        const group: Group = {
          event: bareEvent(route),
          variants,
          prepare: async () => {
            try {
              const first = await world!.prepare(route);
              if (!first) {
                scenarios.set(route.id, 'no call-budget row: a request to its path');
                return;
              }
              group.event = first.event;
              scenarios.set(route.id, `${first.scenario} (${first.status})`);
              source = { kind: 'record', endpoint: world!.dynamodbEndpoint, recording };
              providerSource = { kind: 'record', recording: providerRecording };
            } catch (error) {
              const reason = error instanceof Error ? error.message : String(error);
              scenarios.set(route.id, `not prepared (${reason.split('\n')[0]}): a request to its path`);
            }
          },
          // The floor calls the services the route's own first request called, no more.
          afterWarmup: (v) => {
            if (v.name !== 'route') return;
            if (source.kind === 'record') source = { kind: 'replay', recording };
            if (providerSource.kind === 'record')
              providerSource = { kind: 'replay', recording: providerRecording };
            const called = Object.entries(v.calls ?? {}).filter(([, n]) => n > 0);
            floor.env = { ...floor.env, FLOOR_CALLS: called.map(([s]) => s).join(',') };
          },
        };
        return group;
      });

      const t1 = performance.now();
      await interleave(groups, runs);
      const sampleMs = performance.now() - t1;
      const processes = groups.reduce((n, g) => n + g.variants.length * (runs + 1), 0);

      const rows: BenchRow[] = routes.map((route, i) => ({
        route,
        group: groupOf(route),
        bundle: built.get(route.id)!,
        floorBundle: built.get(floorIdOf(route.access))!,
        variants: groups[i]!.variants,
        scenario: scenarios.get(route.id) ?? '–',
        unreplayed:
          (recordings.get(route.id)?.recording.misses ?? 0) +
          (recordings.get(route.id)?.providerRecording.misses ?? 0),
      }));
      const largest = rows.reduce<BenchRow | undefined>(
        (a, r) => (!a || r.bundle.bytes > a.bundle.bytes ? r : a),
        undefined,
      );
      const markdown = [
        `## Route bundles (esbuild ${esbuildVersion}, target ${bundling.target}, node ${process.version}, ${runs} runs)`,
        bundleTable(rows, built.get('_hello')!, { name: PEER, bundle: built.get('_openauth')! }),
        'Each sample is a fresh `node` process: `await import(bundle)`, then one call of its `handler` with the ' +
          'route’s first request, its call-budget scenario (fixtures/call-budgets/) caught as it is sent to the ' +
          'service over DynamoDB Local, as an API Gateway v2 event (bench/first-requests.ts), against a loopback ' +
          'AWS stub (bench/aws-stub.ts) that passes its first run’s DynamoDB calls to that table and replays ' +
          'their answers to the later runs. The floor constructs only the SDK clients the route declares, and ' +
          'its handler calls once each service the route’s first request called (bench/floor.ts). The peer is ' +
          `${PEER} (code provider, DynamoDB storage) bundled with the same options, answering its metadata. ` +
          'Times are medians; ratios are medians of per-round ratios, the rounds interleaving route, floor, ' +
          'hello-world, peer, ... one process at a time.',
        `### Cold import (CPU time; goals: table routes ≤ ${importGoals.tableRoutesPerPeer}× ${PEER}, median ≤ ${importGoals.medianPerFloor}× floor, MCP ≤ ${importGoals.mcpPerFloor}× floor, no AWS access ≤ ${importGoals.noAwsAboveHelloMs} ms above hello-world)`,
        importSummary(rows, PEER),
        importTable(rows, PEER),
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
    } finally {
      await world?.close();
      await ok.close();
      await fail.close();
    }
  },
};
