process.env.AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED = 'true';

import { availableParallelism } from 'node:os';
import { defineConfig } from 'vitest/config';

/**
 * One test file per core. DynamoDB Local's JVM mostly waits on the files' requests, so leaving it a
 * core of its own costs more than it gives (measured when the suite was small: 67 s with 2 workers,
 * 107 s with 1, on 2 cores; the whole suite now takes about 7 to 8 minutes there).
 */
const maxWorkers = availableParallelism();

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    globalSetup: ['test/support/global-setup.ts'],
    environment: 'node',
    testTimeout: 30_000,
    hookTimeout: 120_000,
    pool: 'forks',
    maxWorkers,
    env: { AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED: 'true' },
  },
});
