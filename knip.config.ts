import type { KnipConfig } from 'knip';
import { routeList } from './shared/routes.ts';

/**
 * TEMPORARY, issue 6: production files with unused exports today, one entry per file (the exports
 * are named beside it). Only test/, bench/ and scripts/ were cleaned here; the owners of lib/ and
 * shared/ remove these exports (or start using them), then delete the entry, and finally this list.
 * Nothing new belongs here.
 */
const KNOWN_UNUSED_EXPORTS: Record<string, ('exports' | 'types')[]> = {
  // issue 6: functionBundling
  'lib/route-function.ts': ['exports'],
  // issue 6: tooManyAttempts
  'shared/sign-in/check-code.ts': ['exports'],
  // issue 6: DEGRADED_AFTER_MS, DOWN_AFTER_MS, worst
  'shared/status/checks.ts': ['exports'],
  // issue 6: IMAGE_PART_CHARS, IMAGE_PARTS
  'shared/users/profile.ts': ['exports'],
  // issue 6: imageProblem
  'shared/users/schemas.ts': ['exports'],
};

/**
 * Dead code, unused exports and unused dependencies (`npm run knip`). The entry points are listed
 * here rather than guessed by plugins: the CDK app and the local server, every handler the route
 * table names (so a handler the table forgets shows up as an unused file), the tests and their
 * global setup, the bench (the `bench` script runs bench/run.ts; bench/hello.ts is a bundle it
 * builds by path), the scripts and the vitest config.
 */
const config: KnipConfig = {
  entry: [
    'bin/*.ts',
    ...routeList.map((route) => route.entry),
    'test/**/*.test.ts',
    'test/support/global-setup.ts',
    'bench/hello.ts',
    'scripts/*.mjs',
    'vitest.config.ts',
  ],
  project: ['{bin,lib,functions,shared,test,bench}/**/*.ts', 'scripts/*.mjs'],
  // The vitest plugin would add the same entries from vitest.config.ts; listing them is the point.
  vitest: false,
  // Debian's apt-get (scripts/ensure-chromium.mjs) and the JDK's java (DynamoDB Local) are system tools.
  ignoreBinaries: ['apt-get', 'java'],
  // The parser dependency-cruiser loads by name (.dependency-cruiser.cjs: parser 'swc').
  ignoreDependencies: ['@swc/core'],
  ignoreIssues: KNOWN_UNUSED_EXPORTS,
};

export default config;
