import type { KnipConfig } from 'knip';
import { AGGREGATOR_ENTRY } from './lib/statistics-aggregator.ts';
import { absentAdapter, chainModules } from './shared/route-access.ts';
import { routeList } from './shared/routes.ts';

/**
 * Dead code, unused exports and unused dependencies (`npm run knip`). The entry points are listed
 * here rather than guessed by plugins: the CDK app and the local server, every handler the route
 * table names (so a handler the table forgets shows up as an unused file) and the statistics
 * aggregator's, the stand-ins a bundle
 * holds for what its route does not declare (shared/route-access.ts), the tests and their
 * global setup, the bench (the `bench` script runs bench/run.ts; bench/hello.ts is a bundle it
 * builds by path), the scripts, the vitest config and the browser SDK's entry (sdk/src/index.ts).
 */
const config: KnipConfig = {
  entry: [
    'bin/*.ts',
    ...routeList.map((route) => route.entry),
    // The one function that is no route: the statistics aggregator the table's stream invokes.
    AGGREGATOR_ENTRY,
    absentAdapter,
    ...chainModules.map((module) => module.standIn),
    'test/**/*.test.ts',
    'test/support/global-setup.ts',
    'bench/hello.ts',
    'bench/floor/*.ts',
    'scripts/*.mjs',
    'vitest.config.ts',
    // The browser SDK's public API: what its index exports is used by the pages that load it.
    'sdk/src/index.ts',
    // The owner dashboard's browser entry (dashboard/build.ts bundles it and every screen it imports).
    'dashboard/src/main.tsx',
    // The verifier package's public entry points (its package.json exports) and its runnable examples.
    'verifier/src/{index,express,hono}.ts',
    'verifier/examples/*.ts',
  ],
  project: [
    '{bin,lib,functions,shared,test,bench,fixtures,verifier}/**/*.ts',
    'sdk/src/**/*.ts',
    'dashboard/**/*.{ts,tsx}',
    'scripts/*.{mjs,ts}',
  ],
  // The vitest plugin would add the same entries from vitest.config.ts; listing them is the point.
  vitest: false,
  // Debian's apt-get (scripts/ensure-chromium.mjs) and the JDK's java and javac (DynamoDB Local and
  // its loopback wrapper) are system tools.
  ignoreBinaries: ['apt-get', 'java', 'javac'],
  // The parser dependency-cruiser loads by name (.dependency-cruiser.cjs: parser 'swc'); the MCP
  // Inspector CLI, which test/e2e/mcp-legacy-clients.test.ts runs as a child process by its path;
  // the OpenAPI linters, which scripts/lint-openapi.ts runs by their bins in node_modules/.bin.
  ignoreDependencies: [
    '@swc/core',
    '@modelcontextprotocol/inspector',
    '@redocly/cli',
    '@stoplight/spectral-cli',
  ],
};

export default config;
