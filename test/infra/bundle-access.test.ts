import { beforeAll, describe, expect, it } from 'vitest';
import { type RouteAccess, routeList, routes } from '../../shared/routes.ts';
import { deployedInputs, type RouteInputs, routeInputs } from '../support/bundle-inputs.ts';

// Structure, not timing (bench/bundles.ts times the bundles): which SDK clients each deployed
// bundle holds at all, read from esbuild's metafile.
let inputs: RouteInputs;

beforeAll(async () => {
  inputs = await routeInputs(routeList);
  // A build for each set of options the routes use, each over the SDK clients: 20 s in the infra lane on
  // two busy cores, about 55 s in a whole run beside the other lanes' files; twice the slower.
}, 120_000);

it('reads, for a route, the inputs of its own build as the stack deploys it', async () => {
  // The route reading the most files: every adapter its access allows and their clients.
  const widest = routeList.reduce((most, route) =>
    inputs.get(route.id)!.length > inputs.get(most.id)!.length ? route : most,
  );
  expect(await deployedInputs(widest)).toEqual(inputs.get(widest.id));
});

const holds = (id: string, pkg: string) =>
  inputs.get(id)!.some((path) => path.includes(`node_modules/${pkg}/`));

/** Each client package and whether an access declares it. */
const clients: Array<[string, (access: RouteAccess) => boolean]> = [
  ['@aws-sdk/client-sesv2', (access) => access.mail === true],
  [
    '@aws-sdk/client-kms',
    (access) => access.sign === true || access.publicKeys === true || access.seal !== undefined,
  ],
  ['@aws-sdk/client-dynamodb', (access) => access.table !== undefined],
  ['@aws-sdk/lib-dynamodb', (access) => access.table !== undefined],
  ['@aws-sdk/client-secrets-manager', (access) => access.codeKey === true],
];

describe('a route bundle holds the SDK clients its access declares, and no other', () => {
  it.each(routeList)('$id', (route) => {
    for (const [pkg, declared] of clients) {
      expect({ pkg, held: holds(route.id, pkg) }).toEqual({ pkg, held: declared(route.access) });
    }
  });

  it('leaves every client out of the preflight bundle', () => {
    for (const [pkg] of clients) expect(holds('preflight', pkg)).toBe(false);
    expect(inputs.get('preflight')!.filter((path) => path.includes('@aws-sdk/'))).toEqual([]);
  });
});

/** The service's own adapters that hold a client, and whether an access declares them. */
const adapters: Array<[string, (access: RouteAccess) => boolean]> = [
  ['shared/crypto/kms-secret-sealer.ts', (access) => access.seal !== undefined],
  ['shared/crypto/kms-signer.ts', (access) => access.sign === true || access.publicKeys === true],
];

describe('a route bundle holds the adapters its access declares, and no other', () => {
  it.each(routeList)('$id', (route) => {
    for (const [file, declared] of adapters) {
      const held = inputs.get(route.id)!.some((path) => path.endsWith(file));
      expect({ file, held }).toEqual({ file, held: declared(route.access) });
    }
  });

  it('bundles the sealer for some routes, so the check above is not vacuous', () => {
    expect(routeList.some((route) => route.access.seal !== undefined)).toBe(true);
  });
});

/** The modules of the route table: one per route (shared/route-table/<area>/<route>.ts), and the lists. */
const routeModules = (paths: readonly string[]) =>
  paths.filter(
    (path) => /^shared\/route-table\/[^/]+\/[^/]+\.ts$/.test(path) && !path.endsWith('/common.ts'),
  );
const tables = (paths: readonly string[]) =>
  paths.filter(
    (path) =>
      path === 'shared/routes.ts' ||
      (/^shared\/route-table\/[^/]+\.ts$/.test(path) && path !== 'shared/route-table/item-families.ts'),
  );

// The OpenAPI route answers the whole table (shared/openapi/document.ts), so it holds every entry.
const ownEntryOnly = routeList.filter((route) => route.id !== 'openApi');

describe('a route bundle holds its own entry of the route table, and no other', () => {
  it.each(ownEntryOnly)('$id', async (route) => {
    const held = routeModules(inputs.get(route.id)!);
    expect(held).toHaveLength(1);
    // That module is the route's: it exports the very entry the table holds under the route's id.
    const module = (await import(`../../${held[0]}`)) as Record<string, unknown>;
    expect(module[route.id]).toBe(routes[route.id]);
    expect(tables(inputs.get(route.id)!)).toEqual([]);
  });

  it('holds the whole table in the OpenAPI route, which describes it', () => {
    expect(routeModules(inputs.get('openApi')!)).toHaveLength(routeList.length);
    expect(tables(inputs.get('openApi')!)).toContain('shared/routes.ts');
  });
});

describe('what no deployed bundle holds (lib/bundling.ts)', () => {
  it.each(routeList)('$id', (route) => {
    const held = inputs.get(route.id)!;
    // The SDK's default credential chain beyond the environment, and the MCP SDK's Ajv.
    expect(
      held.filter((path) => /credential-provider-(node|ini|sso|process|web-identity)\//.test(path)),
    ).toEqual([]);
    expect(held.filter((path) => /ajv/i.test(path))).toEqual([]);
    // DynamoDB's endpoint discovery and its cache (shared/adapters/no-endpoint-discovery.ts).
    expect(held.filter((path) => /endpoint-discovery\/|endpoint-cache\/|mnemonist\//.test(path))).toEqual([]);
  });

  it('holds the MCP SDK in the MCP route, so the check above is not vacuous', () => {
    expect(
      inputs.get('mcp')!.some((path) => path.includes('node_modules/@modelcontextprotocol/server/')),
    ).toBe(true);
  });
});

describe("Node's web streams in a deployed bundle", () => {
  it('are imported by @middy/core alone, which lib/bundling.ts gives the lazy stand-in', () => {
    // shared/adapters/lazy-streams.ts stands in for what @middy/core uses of them; another importer
    // would get the stand-in too, which holds nothing else.
    expect([...(inputs.importers.get('node:stream/web') ?? [])]).toEqual([
      'node_modules/@middy/core/index.js',
    ]);
    expect(inputs.importers.get('stream/web')).toBeUndefined();
  });
});

describe('CommonJS in a deployed bundle', () => {
  it('needs no `require`: the bundles are ESM and define none (lib/bundling.ts)', () => {
    expect(inputs.dynamicRequires).toEqual([]);
  });
});
