import type { AwsStub, Service } from './aws-stub.ts';
import { coldStart, median, type Sample } from './cold-start.ts';

/** One bundle measured in one way: its file, the stub it calls and its environment. */
export interface Variant {
  readonly name: string;
  readonly file: string;
  readonly stub: AwsStub;
  /** Set before the timed runs (the floor's FLOOR_CALLS comes from its route's warm-up). */
  env: Record<string, string>;
  /** Called before each of its processes, after the stub's reset (where its DynamoDB calls go). */
  setup?: () => void;
  /** Its own event instead of the group's (the peer's request). */
  readonly event?: unknown;
  readonly samples: Sample[];
  /** AWS calls of the untimed warm-up sample. */
  calls?: Record<Service, number>;
  error?: string;
}

/** The variants compared with each other: hello-world, the floor, the route, ... */
export interface Group {
  /** The event every variant's handler is called with; `prepare` may set it. */
  event: unknown;
  readonly variants: Variant[];
  /** Called once before the group's warm-ups: makes the state its request needs, and that request. */
  readonly prepare?: () => Promise<void>;
  /** Called after the warm-up of `variants[i]`, before the next one's. */
  readonly afterWarmup?: (variant: Variant) => void;
}

async function sample(group: Group, variant: Variant): Promise<Sample | { error: string }> {
  variant.stub.reset();
  variant.setup?.();
  const result = await coldStart(variant.file, variant.event ?? group.event, variant.env);
  if (!('error' in result)) variant.calls ??= variant.stub.calls();
  return result;
}

/**
 * Group by group: its `prepare`, one untimed warm-up sample of every variant (page cache, import
 * errors, the route's AWS calls), then `runs` rounds that each sample every variant once, one process
 * at a time: A, B, C, A, B, C... so a change in machine load between rounds hits every variant alike.
 * A group's rounds follow its warm-up at once, so the state its request was prepared with (a sign-in
 * code's ten minutes) still holds in its last round.
 */
export async function interleave(groups: readonly Group[], runs: number): Promise<void> {
  for (const group of groups) {
    await group.prepare?.();
    for (const variant of group.variants) {
      const result = await sample(group, variant);
      if ('error' in result) variant.error = result.error;
      group.afterWarmup?.(variant);
    }
    for (let run = 0; run < runs; run++) {
      for (const variant of group.variants) {
        if (variant.error) continue;
        const result = await sample(group, variant);
        if ('error' in result) variant.error = result.error;
        else variant.samples.push(result);
      }
    }
  }
}

export type Metric = (sample: Sample) => number;
export const importMs: Metric = (s) => s.importMs;
export const invokeMs: Metric = (s) => s.invokeMs;
export const importCpuMs: Metric = (s) => s.importCpuMs;
export const invokeCpuMs: Metric = (s) => s.invokeCpuMs;
export const coldStartMs: Metric = (s) => s.importMs + s.invokeMs;
export const coldStartCpuMs: Metric = (s) => s.importCpuMs + s.invokeCpuMs;
export const rssMiB: Metric = (s) => s.rssBytes / 1024 / 1024;

/** Median of `metric` over the variant's samples; undefined when it failed or has none. */
export function medianOf(variant: Variant | undefined, metric: Metric): number | undefined {
  if (!variant || variant.error || variant.samples.length === 0) return undefined;
  return median(variant.samples.map(metric));
}

/** Median of the per-round ratios a/b: paired samples, so slow rounds cancel out. */
export function pairedRatio(
  a: Variant | undefined,
  b: Variant | undefined,
  metric: Metric,
): number | undefined {
  if (!a || !b || a.error || b.error) return undefined;
  const n = Math.min(a.samples.length, b.samples.length);
  if (n === 0) return undefined;
  const ratios = Array.from({ length: n }, (_, i) => metric(a.samples[i]!) / metric(b.samples[i]!));
  return median(ratios);
}

/** Median of the per-round differences a − b, in the metric's unit: what `a` adds to `b`. */
export function pairedDifference(
  a: Variant | undefined,
  b: Variant | undefined,
  metric: Metric,
): number | undefined {
  if (!a || !b || a.error || b.error) return undefined;
  const n = Math.min(a.samples.length, b.samples.length);
  if (n === 0) return undefined;
  return median(Array.from({ length: n }, (_, i) => metric(a.samples[i]!) - metric(b.samples[i]!)));
}
