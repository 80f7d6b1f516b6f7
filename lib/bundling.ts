/**
 * esbuild options for every route's Lambda bundle. The stack's NodejsFunction and the
 * bundle benchmark (bench/) both use these, so the benchmark measures what is deployed.
 */
export const bundling = {
  format: 'esm',
  target: 'node24',
  platform: 'node',
  minify: true,
  sourcemap: true,
  /** Bundle the SDK: pins the tested client versions and lets esbuild drop what is unused. */
  bundleAwsSdk: true,
  /** ESM bundles need `require` for the SDK's CommonJS dependencies. */
  banner:
    "import { createRequire as __doorcodeCreateRequire } from 'node:module';const require = __doorcodeCreateRequire(import.meta.url);",
  mainFields: ['module', 'main'],
} as const;
