/**
 * The floor of a route: a bundle that constructs the SDK clients its access declares and nothing
 * else (no chain, no zod, no domain code). Its handler makes one call through each client named in
 * `FLOOR_CALLS`, which the bench sets to the services the route's own first request called, so
 * both first invocations pay for the first use of the same clients.
 */
import { join } from 'node:path';
import type { RouteAccess } from '../shared/routes.ts';
import type { Service } from './aws-stub.ts';

/** The services a route's access declares, in a fixed order. */
export function declaredServices(access: RouteAccess): Service[] {
  return [
    ...(access.table ? (['dynamodb'] as const) : []),
    ...(access.sign || access.publicKeys ? (['kms'] as const) : []),
    ...(access.mail ? (['ses'] as const) : []),
    ...(access.codeKey ? (['secretsmanager'] as const) : []),
  ];
}

/** esbuild `stdin` for the floor of `services` (an empty list is a bare handler). */
export function floorSource(services: readonly Service[]) {
  const imports = services.map((s) => `import { firstCall as ${s} } from './${s}.ts';`);
  return {
    contents: [
      ...imports,
      `const firstCalls = { ${services.join(', ')} };`,
      "const wanted = (process.env.FLOOR_CALLS ?? '').split(',').filter(Boolean);",
      'export const handler = async () => {',
      '  for (const name of wanted) await firstCalls[name]?.();',
      "  return { statusCode: 200, body: 'ok' };",
      '};',
    ].join('\n'),
    resolveDir: join(import.meta.dirname, 'floor'),
    sourcefile: `floor-${services.join('-') || 'none'}.ts`,
    loader: 'ts' as const,
  };
}
