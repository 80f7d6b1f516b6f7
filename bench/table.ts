import type { RouteSpec } from '../shared/routes.ts';
import type { BundleResult } from './bundle.ts';
import {
  importCpuMs,
  importMs,
  invokeCpuMs,
  invokeMs,
  type Metric,
  medianOf,
  pairedDifference,
  pairedRatio,
  rssMiB,
  type Variant,
} from './interleave.ts';

/** The groups the summary reads the goals by. */
export type RouteGroup = 'sign-in, session, OAuth' | 'management' | 'MCP' | 'no AWS access';

export interface BenchRow {
  readonly route: RouteSpec & { readonly id: string };
  readonly group: RouteGroup;
  readonly bundle: BundleResult;
  readonly floorBundle: BundleResult;
  /** By name: route, floor, hello, peer, route+maps, and for error-path routes error, error+maps. */
  readonly variants: readonly Variant[];
  /** The call-budget scenario of its first request (bench/first-requests.ts), or why it has none. */
  readonly scenario: string;
  /** Calls of its later runs the recording of its first run could not answer (DynamoDB, the provider). */
  readonly unreplayed: number;
}

/** The goals of the cold import (CPU time, medians of interleaved paired runs). */
export const importGoals = {
  /** Every route that reads or writes the table, against the peer's import. */
  tableRoutesPerPeer: 2.5,
  /** The median route, against its own floor. */
  medianPerFloor: 1.15,
  mcpPerFloor: 1.4,
  /** A route with no AWS access, above hello-world's import. */
  noAwsAboveHelloMs: 5,
} as const;

const kib = (bytes: number): string => (bytes / 1024).toFixed(1);
const ms = (n: number | undefined): string => (n === undefined ? '–' : n.toFixed(1));
const times = (n: number | undefined): string => (n === undefined ? '–' : `${n.toFixed(2)}×`);
const plusMs = (n: number | undefined): string =>
  n === undefined ? '–' : `${n >= 0 ? '+' : ''}${n.toFixed(1)}`;
const delta = (n: number | undefined): string =>
  n === undefined ? '–' : `${n >= 1 ? '+' : ''}${((n - 1) * 100).toFixed(0)}%`;
const byName = (row: BenchRow, name: string) => row.variants.find((v) => v.name === name);
const row = (cells: readonly string[]) => `| ${cells.join(' | ')} |`;
const cell = (text: string) => text.replaceAll('|', '\\|').replaceAll('\n', ' ');

function median(values: readonly number[]): number | undefined {
  if (values.length === 0) return undefined;
  const sorted = [...values].sort((a, b) => a - b);
  const mid = sorted.length >> 1;
  return sorted.length % 2 ? sorted[mid]! : (sorted[mid - 1]! + sorted[mid]!) / 2;
}

const declares = (route: RouteSpec): string =>
  Object.entries(route.access)
    .filter(([k]) => k !== 'items' && k !== 'role')
    .map(([k, v]) => (v === true ? k : `${k}:${v}`))
    .join(' ') || '–';

/** Every status its timed runs answered, with how often when they differ. */
function statuses(variant: Variant): string {
  const counts = new Map<string, number>();
  for (const sample of variant.samples) {
    const status = String(sample.status ?? '–');
    counts.set(status, (counts.get(status) ?? 0) + 1);
  }
  if (counts.size <= 1) return [...counts.keys()][0] ?? '–';
  return [...counts].map(([status, n]) => `${status} ×${n}`).join(', ');
}

function answer(r: BenchRow): string {
  const route = byName(r, 'route');
  if (!route) return '–';
  if (route.error) return `error: ${cell(route.error.split('\n')[0] ?? '').slice(0, 80)}`;
  const calls = Object.entries(route.calls ?? {})
    .filter(([, n]) => n > 0)
    .map(([service, n]) => `${service} ${n}`)
    .join(', ');
  const misses = r.unreplayed > 0 ? `; ${r.unreplayed} calls unreplayed` : '';
  return `${statuses(route)}${calls ? `; ${calls}` : ''}${misses}`;
}

/** Sizes, and what each route's first request (its scenario) answered and called. */
export function bundleTable(
  rows: readonly BenchRow[],
  hello: BundleResult,
  peer: { readonly bundle: BundleResult; readonly name: string },
): string {
  const total = rows.reduce((n, r) => n + r.bundle.bytes, 0);
  return [
    '| route | group | declares | size KiB | gzip KiB | floor KiB | first request (call-budget scenario) | status; AWS calls |',
    '|---|---|---|--:|--:|--:|---|---|',
    row(['hello-world', '–', '–', kib(hello.bytes), kib(hello.gzipBytes), '–', '–', '–']),
    row([peer.name, 'peer', '–', kib(peer.bundle.bytes), kib(peer.bundle.gzipBytes), '–', '–', '–']),
    ...rows.map((r) =>
      row([
        r.route.id,
        r.group,
        declares(r.route),
        kib(r.bundle.bytes),
        kib(r.bundle.gzipBytes),
        kib(r.floorBundle.bytes),
        cell(r.scenario),
        answer(r),
      ]),
    ),
    row([
      '**all routes**',
      '',
      '',
      kib(total),
      kib(rows.reduce((n, r) => n + r.bundle.gzipBytes, 0)),
      '',
      '',
      '',
    ]),
  ].join('\n');
}

interface ImportFigures {
  readonly perFloor?: number;
  readonly perPeer?: number;
  readonly aboveHelloMs?: number;
}

const importFigures = (r: BenchRow): ImportFigures => ({
  perFloor: pairedRatio(byName(r, 'route'), byName(r, 'floor'), importCpuMs),
  perPeer: pairedRatio(byName(r, 'route'), byName(r, 'peer'), importCpuMs),
  aboveHelloMs: pairedDifference(byName(r, 'route'), byName(r, 'hello'), importCpuMs),
});

/**
 * The cold import of each route in CPU time (what a busy machine disturbs least), as ratios to its
 * floor and to the peer and as what it adds to hello-world; wall-clock against the floor beside.
 */
export function importTable(rows: readonly BenchRow[], peerName: string): string {
  return [
    `| route | group | CPU ms | CPU ×floor | CPU ×${peerName} | CPU ms above hello | wall ×floor |`,
    '|---|---|--:|--:|--:|--:|--:|',
    ...rows.map((r) => {
      const figures = importFigures(r);
      return row([
        r.route.id,
        r.group,
        ms(medianOf(byName(r, 'route'), importCpuMs)),
        times(figures.perFloor),
        times(figures.perPeer),
        plusMs(figures.aboveHelloMs),
        times(pairedRatio(byName(r, 'route'), byName(r, 'floor'), importMs)),
      ]);
    }),
  ].join('\n');
}

/** Each group's medians, and each goal of `importGoals` with what was measured. */
export function importSummary(rows: readonly BenchRow[], peerName: string): string {
  const groups: RouteGroup[] = ['sign-in, session, OAuth', 'management', 'MCP', 'no AWS access'];
  const figures = new Map(rows.map((r) => [r, importFigures(r)]));
  const defined = (values: Array<number | undefined>) => values.filter((v): v is number => v !== undefined);
  const lines = [
    `| group | routes | median size KiB | median CPU ×floor | median CPU ×${peerName} | worst CPU ×${peerName} | median CPU ms above hello |`,
    '|---|--:|--:|--:|--:|--:|--:|',
  ];
  for (const group of groups) {
    const members = rows.filter((r) => r.group === group);
    if (members.length === 0) continue;
    const of = (pick: (f: ImportFigures) => number | undefined) =>
      defined(members.map((r) => pick(figures.get(r)!)));
    lines.push(
      row([
        group,
        String(members.length),
        kib(median(members.map((r) => r.bundle.bytes)) ?? 0),
        times(median(of((f) => f.perFloor))),
        times(median(of((f) => f.perPeer))),
        times(Math.max(...of((f) => f.perPeer))),
        plusMs(median(of((f) => f.aboveHelloMs))),
      ]),
    );
  }
  const withAws = rows.filter((r) => r.group !== 'no AWS access');
  const tableRoutes = rows.filter((r) => r.route.access.table !== undefined);
  const noAws = rows.filter((r) => r.group === 'no AWS access');
  const mcp = rows.find((r) => r.route.id === 'mcp');
  const worst = (members: readonly BenchRow[], pick: (f: ImportFigures) => number | undefined) =>
    members.reduce<{ row?: BenchRow; value?: number }>((w, r) => {
      const value = pick(figures.get(r)!);
      return value !== undefined && (w.value === undefined || value > w.value) ? { row: r, value } : w;
    }, {});
  const within = (
    members: readonly BenchRow[],
    pick: (f: ImportFigures) => number | undefined,
    goal: number,
  ) =>
    members.filter((r) => {
      const value = pick(figures.get(r)!);
      return value !== undefined && value <= goal;
    }).length;
  const worstPeer = worst(tableRoutes, (f) => f.perPeer);
  const worstNoAws = worst(noAws, (f) => f.aboveHelloMs);
  const medianFloor = median(defined(withAws.map((r) => figures.get(r)!.perFloor)));
  const mcpFloor = mcp && figures.get(mcp)!.perFloor;
  return [
    ...lines,
    '',
    `- Routes that use DynamoDB within ${importGoals.tableRoutesPerPeer}× ${peerName}: ` +
      `${within(tableRoutes, (f) => f.perPeer, importGoals.tableRoutesPerPeer)} of ${tableRoutes.length} ` +
      `(the slowest: ${worstPeer.row?.route.id ?? '–'}, ${times(worstPeer.value)}).`,
    `- Median route with AWS access against its floor: ${times(medianFloor)} ` +
      `(goal ≤ ${importGoals.medianPerFloor}×); within it: ` +
      `${within(withAws, (f) => f.perFloor, importGoals.medianPerFloor)} of ${withAws.length}.`,
    `- MCP against its floor: ${times(mcpFloor)} (goal ≤ ${importGoals.mcpPerFloor}×).`,
    `- Routes with no AWS access within ${importGoals.noAwsAboveHelloMs} ms (CPU) of hello-world: ` +
      `${within(noAws, (f) => f.aboveHelloMs, importGoals.noAwsAboveHelloMs)} of ${noAws.length} ` +
      `(the most: ${worstNoAws.row?.route.id ?? '–'}, ${plusMs(worstNoAws.value)} ms).`,
  ].join('\n');
}

/**
 * One phase (first invocation, or import and invocation together): each route beside its floor and
 * hello-world, in wall-clock and CPU milliseconds, and how many routes are within `goal` × floor.
 */
export function phaseTable(rows: readonly BenchRow[], wall: Metric, cpu: Metric, goal?: number): string {
  const lines = [
    '| route | ms | floor | hello | ×floor | ×hello | CPU ms | floor | hello | CPU ×floor | CPU ×hello |',
    '|---|--:|--:|--:|--:|--:|--:|--:|--:|--:|--:|',
  ];
  let met = 0;
  let metCpu = 0;
  for (const r of rows) {
    const [route, floor, hello] = [byName(r, 'route'), byName(r, 'floor'), byName(r, 'hello')];
    const ratio = pairedRatio(route, floor, wall);
    const ratioCpu = pairedRatio(route, floor, cpu);
    if (goal !== undefined && ratio !== undefined && ratio <= goal) met++;
    if (goal !== undefined && ratioCpu !== undefined && ratioCpu <= goal) metCpu++;
    lines.push(
      row([
        r.route.id,
        ms(medianOf(route, wall)),
        ms(medianOf(floor, wall)),
        ms(medianOf(hello, wall)),
        times(ratio),
        times(pairedRatio(route, hello, wall)),
        ms(medianOf(route, cpu)),
        ms(medianOf(floor, cpu)),
        ms(medianOf(hello, cpu)),
        times(ratioCpu),
        times(pairedRatio(route, hello, cpu)),
      ]),
    );
  }
  if (goal === undefined) return lines.join('\n');
  return [
    ...lines,
    '',
    `Within ${goal.toFixed(2)}× floor: ${met} of ${rows.length} routes by wall clock, ${metCpu} of ${rows.length} by CPU time.`,
  ].join('\n');
}

/** Each route with and without `--enable-source-maps`, and the error path of the `--errors` routes. */
export function sourceMapTable(rows: readonly BenchRow[]): string {
  const lines = [
    '| route | path | import ms off → on | Δ | CPU Δ | 1st invocation ms off → on | Δ | CPU Δ | RSS MiB off → on |',
    '|---|---|--:|--:|--:|--:|--:|--:|--:|',
  ];
  for (const r of rows) {
    for (const [path, off, on] of [
      ['usual', byName(r, 'route'), byName(r, 'route+maps')],
      ['error', byName(r, 'error'), byName(r, 'error+maps')],
    ] as const) {
      if (!off || !on) continue;
      lines.push(
        row([
          r.route.id,
          path === 'error' ? `error (${off.samples[0]?.status ?? '–'})` : path,
          `${ms(medianOf(off, importMs))} → ${ms(medianOf(on, importMs))}`,
          delta(pairedRatio(on, off, importMs)),
          delta(pairedRatio(on, off, importCpuMs)),
          `${ms(medianOf(off, invokeMs))} → ${ms(medianOf(on, invokeMs))}`,
          delta(pairedRatio(on, off, invokeMs)),
          delta(pairedRatio(on, off, invokeCpuMs)),
          `${ms(medianOf(off, rssMiB))} → ${ms(medianOf(on, rssMiB))}`,
        ]),
      );
    }
  }
  return [
    ...lines,
    '',
    'Same bundle and event, interleaved with the rows above; Δ are medians of paired ratios. “error” refuses ' +
      'every AWS call (non-retryable 400), so the chain logs the unexpected error with its stack, which is ' +
      'where a source map is applied.',
  ].join('\n');
}
