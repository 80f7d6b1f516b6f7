/**
 * Benchmark runner (`npm run bench [-- name ... --option=value ...]`). Each benchmark is a module
 * exporting a `Benchmark` (bench/types.ts); add new ones to the list below.
 */
import { mkdir } from 'node:fs/promises';
import { join } from 'node:path';
import { bundlesBenchmark } from './bundles.ts';
import { callsBenchmark } from './calls.ts';
import { dashboardBenchmark } from './dashboard.ts';
import { launchBenchmark } from './launch.ts';
import { limitsBenchmark } from './limits.ts';
import { sdkBenchmark } from './sdk.ts';
import type { BenchContext, Benchmark } from './types.ts';
import { verifierBenchmark } from './verifier.ts';

const benchmarks: readonly Benchmark[] = [
  bundlesBenchmark,
  callsBenchmark,
  dashboardBenchmark,
  launchBenchmark,
  limitsBenchmark,
  sdkBenchmark,
  verifierBenchmark,
];

const args = process.argv.slice(2);
const selected = args.filter((arg) => !arg.startsWith('--'));
const options = Object.fromEntries(
  args
    .filter((arg) => arg.startsWith('--'))
    .map((arg) => {
      const [name = '', ...value] = arg.slice(2).split('=');
      return [name, value.join('=')];
    }),
);
const unknown = selected.filter((name) => !benchmarks.some((b) => b.name === name));
if (unknown.length > 0) {
  console.error(
    `unknown benchmark(s): ${unknown.join(', ')}; available: ${benchmarks.map((b) => b.name).join(', ')}`,
  );
  process.exit(2);
}

const repoRoot = join(import.meta.dirname, '..');
const ctx: BenchContext = { repoRoot, outDir: join(repoRoot, 'bench', '.out'), options };
await mkdir(ctx.outDir, { recursive: true });

for (const b of benchmarks) {
  if (selected.length > 0 && !selected.includes(b.name)) continue;
  console.log(`# bench: ${b.name} — ${b.description}\n`);
  const t = performance.now();
  await b.run(ctx);
  console.log(`\n(${b.name}: ${((performance.now() - t) / 1000).toFixed(1)} s)\n`);
}
