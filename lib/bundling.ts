import { fileURLToPath } from 'node:url';
import type { BuildOptions } from 'esbuild';
import type { AuthMode, RouteAccess } from '../shared/routes.ts';

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
  /**
   * Positions only: shared/original-stack.ts maps a logged stack with them, and without the
   * embedded sources a map is about a third of the size (2.4 -> 0.9 MB for the start route).
   */
  sourcesContent: false,
  /** Bundle the SDK: pins the tested client versions and lets esbuild drop what is unused. */
  bundleAwsSdk: true,
  /** ESM bundles need `require` for the SDK's CommonJS dependencies. */
  banner:
    "import { createRequire as __doorcodeCreateRequire } from 'node:module';const require = __doorcodeCreateRequire(import.meta.url);",
  mainFields: ['module', 'main'],
} as const;

const absentAdapter = fileURLToPath(new URL('../shared/adapters/absent.ts', import.meta.url));
const noCredentials = fileURLToPath(new URL('../shared/adapters/no-credentials.ts', import.meta.url));
const noPermission = fileURLToPath(new URL('../shared/adapters/no-permission.ts', import.meta.url));

/**
 * The adapters a route's bundle must not hold, as esbuild aliases: each `#adapters/...` import
 * (package.json `imports`) its access does not declare resolves to shared/adapters/absent.ts
 * instead, so that adapter and the SDK client behind it never enter the bundle. Aliasing the import
 * rather than folding a flag keeps the module out of the graph even when it has side effects
 * (@aws-sdk/lib-dynamodb's paginators do), and keeps the imports static, which esbuild tree-shakes
 * (an `import()` would keep every command of the client). Unbundled code (tsx, vitest) loads every adapter.
 */
function absentAdapters(access: RouteAccess, auth: AuthMode): Record<string, string> {
  const absent: Record<string, boolean> = {
    '#adapters/dynamodb': access.table === undefined,
    '#adapters/signing': access.sign !== true && access.publicKeys !== true,
    '#adapters/ses': access.mail !== true,
    '#adapters/code-key': access.codeKey !== true,
    '#adapters/sealer': access.seal === undefined,
  };
  return {
    ...Object.fromEntries(
      Object.entries(absent)
        .filter(([, isAbsent]) => isAbsent)
        .map(([specifier]) => [specifier, absentAdapter]),
    ),
    // A route that reads no credential holds no session or key lookup (nor the store behind it).
    ...(auth === 'none' ? { '#callers': noCredentials } : {}),
    // Only management routes (auth `manage`) consult the permission matrix and read their targets.
    ...(auth !== 'manage' ? { '#authorize': noPermission } : {}),
  };
}

/** The same aliases as NodejsFunction `esbuildArgs` (its bundling options have no `alias`). */
export function absentAdapterArgs(access: RouteAccess, auth: AuthMode): Record<string, string> {
  return Object.fromEntries(
    Object.entries(absentAdapters(access, auth)).map(([specifier, file]) => [`--alias:${specifier}`, file]),
  );
}

/** The options of a route's bundle in esbuild's own vocabulary, for bundling outside CDK (bench/, tests). */
export function esbuildOptions(access: RouteAccess, auth: AuthMode = 'none'): BuildOptions {
  return {
    bundle: true,
    format: bundling.format,
    target: bundling.target,
    platform: bundling.platform,
    minify: bundling.minify,
    sourcemap: bundling.sourcemap,
    sourcesContent: bundling.sourcesContent,
    mainFields: [...bundling.mainFields],
    banner: { js: bundling.banner },
    alias: absentAdapters(access, auth),
    // NodejsFunction marks `@aws-sdk/*` external unless the SDK is bundled.
    external: bundling.bundleAwsSdk ? [] : ['@aws-sdk/*'],
  };
}
