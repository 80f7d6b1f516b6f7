/**
 * The lanes (CONTRIBUTING.md, "Test lanes"): each runs the test files of its folders under test/, so a new
 * file lands in the lane of its folder. `services`: the lane starts DynamoDB Local and the SES
 * emulator (test/support/global-setup.ts), once for the run however many such lanes run.
 * `isolate`: each test file gets modules of its own. The lanes that do not isolate load the server,
 * the SDK and CDK once per worker rather than once per file (the http lane took 172 s instead of
 * 220 s, its imports 9 s instead of 57 s, on two cores, 2026-11-28): their files share no state
 * through modules, each starting its own app over its own table. The unit lane isolates, since what it
 * tests includes module state, as a Lambda container's first request (`test/unit/request-deps.test.ts`).
 * vitest.config.ts makes a vitest project of each; test/unit/test-lanes.test.ts fails for a folder
 * of tests no lane runs.
 */
export const lanes = {
  /** Pure logic, the browser SDK's and the verifier's own tests: no JVM, no emulator. */
  unit: { folders: ['unit', 'sdk', 'verifier'], services: false, isolate: true },
  /** The local server over HTTP, and the store, against DynamoDB Local and the SES emulator. */
  http: { folders: ['http'], services: true, isolate: false },
  /** What is built and shipped: CDK assertions, cdk-nag, the route bundles, the npm packages. */
  infra: { folders: ['infra', 'packages'], services: false, isolate: false },
  /** The service's pages and the SDK in headless Chromium. */
  browser: { folders: ['browser'], services: true, isolate: false },
  /** Third-party clients (MCP, oauth4webapi, social providers) against the local server. */
  e2e: { folders: ['e2e'], services: true, isolate: false },
} as const;
