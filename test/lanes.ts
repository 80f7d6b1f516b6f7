/**
 * The lanes (CONTRIBUTING.md, "Test lanes"): each runs the test files of its folders under test/, so a new
 * file lands in the lane of its folder. `services`: the lane starts DynamoDB Local and the SES
 * emulator (test/support/global-setup.ts), once for the run however many such lanes run.
 * vitest.config.ts makes a vitest project of each; test/unit/test-lanes.test.ts fails for a folder
 * of tests no lane runs.
 */
export const lanes = {
  /** Pure logic, the browser SDK's and the verifier's own tests: no JVM, no emulator. */
  unit: { folders: ['unit', 'sdk', 'verifier'], services: false },
  /** The local server over HTTP, and the store, against DynamoDB Local and the SES emulator. */
  http: { folders: ['http'], services: true },
  /** What is built and shipped: CDK assertions, cdk-nag, the route bundles, the npm packages. */
  infra: { folders: ['infra', 'packages'], services: false },
  /** The service's pages and the SDK in headless Chromium. */
  browser: { folders: ['browser'], services: true },
  /** Third-party clients (MCP, oauth4webapi, social providers) against the local server. */
  e2e: { folders: ['e2e'], services: true },
} as const;
