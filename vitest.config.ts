process.env.AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED = 'true';

import { availableParallelism } from 'node:os';
import { defineConfig } from 'vitest/config';
import { lanes } from './test/lanes.ts';
import { fastCheckSeed } from './test/support/fast-check-seed.ts';

const seed = fastCheckSeed();
console.log(`fast-check seed ${seed} (replay a failing property with FC_SEED=${seed} npx vitest run <file>)`);

/**
 * One test file per core. DynamoDB Local's JVM mostly waits on the files' requests, so leaving it a
 * core of its own costs more than it gives (67 s with 2 workers, 107 s with 1, when the suite was small).
 */
const maxWorkers = availableParallelism();

/** What every lane shares. Set here rather than inherited (`extends`), which would load this file again per lane. */
const shared = {
  environment: 'node',
  testTimeout: 30_000,
  hookTimeout: 120_000,
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
        ...(lane.services ? { globalSetup: ['test/support/global-setup.ts'] } : {}),
      },
    })),
  },
});
