process.env.AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED = 'true';

import { availableParallelism } from 'node:os';
import { defineConfig } from 'vitest/config';
import { lanes } from './test/lanes.ts';
import { fastCheckSeed } from './test/support/fast-check-seed.ts';

const seed = fastCheckSeed();
console.log(`fast-check seed ${seed} (replay a failing property with FC_SEED=${seed} npx vitest run <file>)`);

/**
 * One test file per core. DynamoDB Local's JVM mostly waits on the files' requests, so leaving it a
 * core of its own costs more than it gives, and a third worker gains nothing: the http lane took 288 s
 * with 1 worker, 205 to 220 s with 2 and 224 s with 3 (2 cores shared with other test runs,
 * 2026-11-27); every lane at once took 335 s with 2 workers and 366 s with 3 (2026-11-28).
 *
 * Every lane at once (`npx vitest run`) on two cores, 2026-11-28: 446 s with every file isolated,
 * 335 s with only the unit lane isolated (test/lanes.ts, `isolate`) and the timeout tests given a
 * shorter function timeout.
 */
const maxWorkers = availableParallelism();

/** What every lane shares. Set here rather than inherited (`extends`), which would load this file again per lane. */
const shared = {
  environment: 'node',
  testTimeout: 30_000,
  // The longest hooks (a route battery, an app with Chromium) took 10 s on the busy machine.
  hookTimeout: 60_000,
  pool: 'forks',
  env: { AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED: 'true' },
} as const;

export default defineConfig({
  test: {
    maxWorkers,
    // Every lane reads it (test/support/fast-check.ts), with or without services.
    provide: { fcSeed: seed },
    projects: Object.entries(lanes).map(([name, lane]) => ({
      test: {
        ...shared,
        name,
        include: lane.folders.map((folder) => `test/${folder}/**/*.test.ts`),
        isolate: lane.isolate,
        ...(lane.services ? { globalSetup: ['test/support/global-setup.ts'] } : {}),
      },
    })),
  },
});
