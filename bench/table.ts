import type { RouteSpec } from '../shared/routes.ts';
import type { BundleResult } from './bundle.ts';
import {
  importCpuMs,
  importMs,
  invokeCpuMs,
  invokeMs,
  type Metric,
  medianOf,
  pairedRatio,
  rssMiB,
  type Variant,
} from './interleave.ts';

export interface BenchRow {
  readonly route: RouteSpec & { readonly id: string };
  readonly bundle: BundleResult;
  readonly floorBundle: BundleResult;
  /** By name: route, floor, hello, route+maps, and for error-path routes error, error+maps. */
  readonly variants: readonly Variant[];
}

const kib = (bytes: number): string => (bytes / 1024).toFixed(1);
const ms = (n: number | undefined): string => (n === undefined ? '–' : n.toFixed(1));
const times = (n: number | undefined): string => (n === undefined ? '–' : `${n.toFixed(2)}×`);
const delta = (n: number | undefined): string =>
  n === undefined ? '–' : `${n >= 1 ? '+' : ''}${((n - 1) * 100).toFixed(0)}%`;
const byName = (row: BenchRow, name: string) => row.variants.find((v) => v.name === name);
const row = (cells: readonly string[]) => `| ${cells.join(' | ')} |`;

const declares = (route: RouteSpec): string =>
  Object.entries(route.access)
    .map(([k, v]) => (v === true ? k : `${k}:${v}`))
    .join(' ') || '–';

function answer(route: Variant | undefined): string {
  if (!route) return '–';
  if (route.error) return `error: ${(route.error.split('\n')[0] ?? '').replaceAll('|', '\\|').slice(0, 80)}`;
  const calls = Object.entries(route.calls ?? {})
    .filter(([, n]) => n > 0)
    .map(([service, n]) => `${service} ${n}`)
    .join(', ');
  return `${route.samples[0]?.status ?? '–'}${calls ? `; ${calls}` : ''}`;
}

/** Sizes, and what each route's representative first request answered and called. */
export function bundleTable(rows: readonly BenchRow[], hello: BundleResult): string {
  const total = rows.reduce((n, r) => n + r.bundle.bytes, 0);
  return [
    '| route | declares | size KiB | gzip KiB | floor KiB | first request: status; AWS calls |',
    '|---|---|--:|--:|--:|---|',
    row(['hello-world', '–', kib(hello.bytes), kib(hello.gzipBytes), '–', '–']),
    ...rows.map((r) =>
      row([
        r.route.id,
        declares(r.route),
        kib(r.bundle.bytes),
        kib(r.bundle.gzipBytes),
        kib(r.floorBundle.bytes),
        answer(byName(r, 'route')),
      ]),
    ),
    row(['**all routes**', '', kib(total), kib(rows.reduce((n, r) => n + r.bundle.gzipBytes, 0)), '', '']),
  ].join('\n');
}

/**
 * One phase (cold import, first invocation, or both): each route beside its floor and hello-world,
 * in wall-clock and CPU milliseconds, and how many routes are within `goal` × floor.
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
