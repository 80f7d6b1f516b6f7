import { fileURLToPath } from 'node:url';
import type { BuildOptions } from 'esbuild';
import { type AdapterPort, absentAdapter, adapters, chainModules, declares } from '../shared/route-access.ts';
import type { AccessProfile, AuthMode } from '../shared/routes.ts';

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
  mainFields: ['module', 'main'],
} as const;

const repoRoot = new URL('..', import.meta.url);
const inRepo = (module: string) => fileURLToPath(new URL(module, repoRoot));

/**
 * Modules every deployed bundle replaces, whatever its route, by what the service uses of them on
 * Lambda. The AWS SDK's default credential chain (`@aws-sdk/credential-provider-node`) tries SSO,
 * shared files, processes, web identity and instance metadata, with the STS and SSO clients they
 * need, before it would find what Lambda sets: the environment (shared/adapters/env-credentials.ts).
 * Its event-stream codec serves operations the service never calls, and DynamoDB's endpoint
 * discovery is applied by no command of the client (shared/adapters/no-endpoint-discovery.ts). The
 * MCP SDK's shims make Ajv the default JSON Schema validator, which shared/mcp/server.ts never lets it
 * construct. `@middy/core` imports Node's web streams for streamed responses, which no route answers:
 * they load when first used (shared/adapters/lazy-streams.ts).
 */
const deployedStandIns: Readonly<Record<string, string>> = {
  '@aws-sdk/credential-provider-node': 'shared/adapters/env-credentials.ts',
  '@smithy/core/event-streams': 'shared/adapters/no-event-streams.ts',
  '@aws-sdk/middleware-endpoint-discovery': 'shared/adapters/no-endpoint-discovery.ts',
  '@modelcontextprotocol/server/_shims': 'shared/adapters/mcp-shims.ts',
  'node:stream/web': 'shared/adapters/lazy-streams.ts',
};

/**
 * The modules a bundle must not hold, as esbuild aliases: each adapter's subpath import
 * (shared/route-access.ts) its access does not declare resolves to the absent adapter instead, so
 * that adapter and the SDK client behind it never enter the bundle; each handler-chain module its
 * auth mode does not use resolves to its stand-in; and what a deployed bundle never uses
 * (`deployedStandIns`).
 * Aliasing the import rather than folding a flag keeps the module out of the graph even when it has
 * side effects (@aws-sdk/lib-dynamodb's paginators do), and keeps the imports static, which esbuild
 * tree-shakes (an `import()` would keep every command of the client). Unbundled code (tsx, vitest)
 * loads every module.
 *
 * `access` and `auth` are a route's (shared/route-spec.ts); a function that is not a route (a stream
 * consumer) passes the access its role grants and no auth mode, so the handler chain's credential and
 * permission modules resolve to their stand-ins.
 */
function aliases(access: AccessProfile, auth: AuthMode = 'none'): Record<string, string> {
  return Object.fromEntries([
    ...(Object.keys(adapters) as AdapterPort[])
      .filter((port) => !declares(access, port))
      .map((port) => [adapters[port].specifier, inRepo(absentAdapter)]),
    ...chainModules
      .filter((module) => !module.usedBy(auth))
      .map((module) => [module.specifier, inRepo(module.standIn)]),
    ...Object.entries(deployedStandIns).map(([specifier, module]) => [specifier, inRepo(module)]),
  ]);
}

/** The same aliases as NodejsFunction `esbuildArgs` (its bundling options have no `alias`). */
export function absentAdapterArgs(access: AccessProfile, auth?: AuthMode): Record<string, string> {
  return Object.fromEntries(
    Object.entries(aliases(access, auth)).map(([specifier, file]) => [`--alias:${specifier}`, file]),
  );
}

/** The options of a bundle in esbuild's own vocabulary, for bundling outside CDK (bench/, tests). */
export function esbuildOptions(access: AccessProfile, auth?: AuthMode): BuildOptions {
  return {
    bundle: true,
    format: bundling.format,
    target: bundling.target,
    platform: bundling.platform,
    minify: bundling.minify,
    sourcemap: bundling.sourcemap,
    sourcesContent: bundling.sourcesContent,
    mainFields: [...bundling.mainFields],
    alias: aliases(access, auth),
    // NodejsFunction marks `@aws-sdk/*` external unless the SDK is bundled.
    external: bundling.bundleAwsSdk ? [] : ['@aws-sdk/*'],
  };
}
