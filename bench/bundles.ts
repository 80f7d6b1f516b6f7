import { writeFile } from 'node:fs/promises';
import { availableParallelism } from 'node:os';
import { join, relative } from 'node:path';
import { version as esbuildVersion } from 'esbuild';
import { bundling } from '../lib/bundling.ts';
import { routeList } from '../shared/routes.ts';
import {
  type BundleResult,
  bundleEntry,
  type InputShare,
  topDirectories,
  topInputs,
  topPackages,
} from './bundle.ts';
import { measureColdImport } from './cold-import.ts';
import { type BundleRow, bundleTable, importErrors } from './table.ts';
import type { BenchContext, Benchmark } from './types.ts';

/** Output directory of the reference bundle; a leading `_` keeps it apart from route ids. */
const helloId = '_hello';

function runsFromEnv(): number {
  const raw = process.env.BENCH_RUNS;
  if (raw === undefined || raw === '') return 7;
  const n = Number(raw);
  if (!Number.isInteger(n) || n < 1) throw new Error(`BENCH_RUNS must be a positive integer, got ${raw}`);
  return n;
}

interface Built {
  readonly id: string;
  readonly route: string;
  readonly bundle?: BundleResult;
  readonly error?: string;
}

/** Runs `task` over `items` with at most `limit` in flight, keeping order. */
async function mapLimit<T, R>(
  items: readonly T[],
  limit: number,
  task: (item: T) => Promise<R>,
): Promise<R[]> {
  const results: R[] = new Array(items.length);
  let next = 0;
  const worker = async (): Promise<void> => {
    while (next < items.length) {
      const i = next++;
      results[i] = await task(items[i]!);
    }
  };
  await Promise.all(Array.from({ length: Math.min(limit, items.length) }, worker));
  return results;
}

const shareLines = (shares: readonly InputShare[], total: number): string[] =>
  shares.map(
    (s, i) =>
      `${i + 1}. \`${s.path}\` — ${(s.bytes / 1024).toFixed(1)} KiB (${((100 * s.bytes) / total).toFixed(1)}%)`,
  );

export const bundlesBenchmark: Benchmark = {
  name: 'bundles',
  description: 'Size and cold import time of every route bundle, built with the options of lib/bundling.ts',
  async run({ repoRoot, outDir }: BenchContext): Promise<void> {
    const runs = runsFromEnv();
    const jobs = [
      {
        id: helloId,
        route: 'hello-world (reference)',
        entry: relative(repoRoot, join(import.meta.dirname, 'hello.ts')),
      },
      ...routeList.map((r) => ({ id: r.id, route: `${r.method} ${r.path}`, entry: r.entry })),
    ];

    // esbuild parallelises inside its service; the limit keeps memory bounded as the table grows.
    const t0 = performance.now();
    const built = await mapLimit(
      jobs,
      Math.max(2, availableParallelism() * 2),
      async (job): Promise<Built> => {
        try {
          return {
            id: job.id,
            route: job.route,
            bundle: await bundleEntry(repoRoot, job.entry, join(outDir, job.id)),
          };
        } catch (err) {
          // A route whose entry does not build yet is a row with the error, not a crash.
          return {
            id: job.id,
            route: job.route,
            error: `bundle failed: ${err instanceof Error ? err.message : String(err)}`,
          };
        }
      },
    );
    const buildMs = performance.now() - t0;
    for (const b of built)
      for (const w of b.bundle?.warnings ?? []) console.warn(`esbuild warning (${b.id}): ${w}`);

    // Sequential on purpose: concurrent processes would disturb each other's timings.
    const t1 = performance.now();
    const rows: BundleRow[] = [];
    for (const b of built) {
      rows.push(
        b.bundle
          ? {
              id: b.id,
              route: b.route,
              bytes: b.bundle.bytes,
              gzipBytes: b.bundle.gzipBytes,
              cold: await measureColdImport(b.bundle.file, runs),
            }
          : { id: b.id, route: b.route, cold: { ok: false, error: b.error ?? 'bundle failed' } },
      );
    }
    const importMs = performance.now() - t1;

    const [reference, ...routeRows] = rows;
    let largest: { id: string; bundle: BundleResult } | undefined;
    for (const b of built.slice(1)) {
      if (b.bundle && (!largest || b.bundle.bytes > largest.bundle.bytes))
        largest = { id: b.id, bundle: b.bundle };
    }

    const blocks = [
      `## Route bundles (esbuild ${esbuildVersion}, target ${bundling.target}, node ${process.version})`,
      bundleTable(reference!, routeRows, runs),
      importErrors(rows),
      largest ? compositionSection(largest.id, largest.bundle) : '',
    ];
    const markdown = `${blocks.filter((b) => b !== '').join('\n\n')}\n`;

    console.log(markdown);
    console.log(
      `bundled ${built.length} entries in ${(buildMs / 1000).toFixed(1)} s; ` +
        `${rows.filter((r) => r.cold.ok).length * (runs + 1)} import processes in ${(importMs / 1000).toFixed(1)} s`,
    );
    const mdFile = join(outDir, 'bundles.md');
    await writeFile(mdFile, markdown);
    console.log(
      `wrote ${relative(repoRoot, mdFile)} and bundles in ${relative(repoRoot, outDir)}/<route>/index.mjs`,
    );
  },
};

function compositionSection(id: string, bundle: BundleResult): string {
  return [
    `### What is in the largest bundle (${id}, ${(bundle.bytes / 1024).toFixed(1)} KiB)`,
    '',
    'Top 5 inputs by bytes in the minified output:',
    '',
    ...shareLines(topInputs(bundle.metafile, 5), bundle.bytes),
    '',
    'Top 5 directories:',
    '',
    ...shareLines(topDirectories(bundle.metafile, 5), bundle.bytes),
    '',
    'Top 5 packages:',
    '',
    ...shareLines(topPackages(bundle.metafile, 5), bundle.bytes),
    '',
    `Full metafile: bench/.out/${id}/meta.json (load it in https://esbuild.github.io/analyze/).`,
  ].join('\n');
}
