/**
 * `npm run bench -- sdk`: the browser SDK's bundle (scripts/build-sdk.ts) as a page loads it: its
 * size, and gzipped beside the 10 KB budget (docs/sdk.md; test/sdk/bundle.test.ts holds the budget).
 */
import { join } from 'node:path';
import { buildSdk } from '../scripts/build-sdk.ts';
import type { BenchContext, Benchmark } from './types.ts';

const BUDGET_GZIP_BYTES = 10 * 1024;

export const sdkBenchmark: Benchmark = {
  name: 'sdk',
  description: 'Size of the browser SDK bundle (minified ESM), raw and gzipped, beside its 10 KB budget',
  async run({ outDir }: BenchContext): Promise<void> {
    const built = await buildSdk(join(outDir, 'sdk'));
    const share = ((built.gzipBytes / BUDGET_GZIP_BYTES) * 100).toFixed(0);
    console.log('| bundle | bytes | gzipped | budget (gzipped) |');
    console.log('|---|---:|---:|---:|');
    console.log(
      `| @doorcode/client index.js | ${built.bytes} | ${built.gzipBytes} | ${BUDGET_GZIP_BYTES} (${share}% used) |`,
    );
  },
};
