import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type RouteAccess, type RouteId, routeList, routes } from '../../shared/routes.ts';
import type { ItemFamily } from '../../shared/store/keys.ts';
import type { TestApp } from '../support/app.ts';
import {
  deviceAdministrationAndTeardownPaths,
  mcpPaths,
  signInSessionAndManagementPaths,
  startBatteryHosts,
} from '../support/route-battery.ts';
import { familiesOf, PartitionRecorder, routeOf, type TouchedPartition } from '../support/touched-keys.ts';

/**
 * docs/security.md, "Table grants: each role reaches only its item families (`dynamodb:LeadingKeys`)": every
 * partition a route's handler touches belongs to an item family the route declares (its entry's `access.items`),
 * so the `dynamodb:LeadingKeys` condition its role gets (lib/grants.ts) never refuses it in AWS. The battery
 * runs the sign-in, session and management bootstrap paths one request at a time
 * (test/support/route-battery.ts) and records, with an SDK middleware, the partition keys of every DynamoDB
 * command, attributed to the route that served the request.
 */
const recorder = new PartitionRecorder();
/**
 * Per route: what it touched, and whether it succeeded at least once (an exercised route): a 2xx,
 * or the 3xx of a route whose success is a redirect (the OAuth sign-in verify and consent answer 303).
 */
const seen = new Map<RouteId, { touched: TouchedPartition[]; answered: boolean }>();
let hosts: Awaited<ReturnType<typeof startBatteryHosts>>;
let real: TestApp;
let app: TestApp;
let queue: Promise<unknown> = Promise.resolve();

beforeAll(async () => {
  hosts = await startBatteryHosts();
  real = hosts.real;
  recorder.watch(real.deps);
  // The same app whose requests run one after the other, each one's commands given to its route.
  app = {
    ...real,
    request: (method, path, options) => {
      const run = queue.then(async () => {
        recorder.take();
        const response = await real.request(method, path, options);
        const route = routeOf(method, path);
        if (!route) throw new Error(`no route serves ${method} ${path}`);
        const entry = seen.get(route) ?? { touched: [], answered: false };
        entry.touched.push(...recorder.take());
        // GET and DELETE /mcp/{applicationId} answer only 405 (Streamable HTTP, no stream); the OAuth
        // pages answer 302/303 on success.
        entry.answered ||= response.status < 400 || (response.status === 405 && onlyRefuses(route));
        seen.set(route, entry);
        return response;
      });
      queue = run.catch(() => undefined);
      return run;
    },
  };
});
afterAll(() => hosts?.close());

// Each test runs a whole path of the route battery: on a loaded machine more than the 30 s default.
describe('the item families each route declares (`access.items`)', { timeout: 120_000 }, () => {
  it('cover every partition the sign-in, session and management paths touch', async () => {
    await signInSessionAndManagementPaths({ ...hosts, app });
    await queue;
    expect(undeclaredPartitions()).toEqual([]);
  });

  it('cover every partition the device, user administration, tenant, impersonation and teardown paths touch', async () => {
    await deviceAdministrationAndTeardownPaths({ ...hosts, app });
    await queue;
    expect(undeclaredPartitions()).toEqual([]);
  });

  it('cover every partition the MCP endpoint and its seven tools touch', async () => {
    await mcpPaths({ ...hosts, app });
    await queue;
    expect(undeclaredPartitions()).toEqual([]);
  });

  it('reaches every route of the table with a successful answer (405 for routes that declare only that)', () => {
    const exercised = new Set([...seen].filter(([, entry]) => entry.answered).map(([route]) => route));
    const missed = routeList.filter((route) => !exercised.has(route.id)).map((route) => route.id);
    expect(missed).toEqual([]);
  });
});

/** The item families a route declares. */
function itemsOf(route: RouteId): readonly ItemFamily[] {
  const access: RouteAccess = routes[route].access;
  return access.items ?? [];
}

/** A route whose contract declares no success at all, only the 405 of a method it does not serve. */
const onlyRefuses = (route: RouteId): boolean =>
  Object.keys(routes[route].contract.responses).every((status) => status === '405');

/** Every recorded partition outside the families its route declares, with the families it belongs to. */
function undeclaredPartitions() {
  return [...seen].flatMap(([route, { touched }]) =>
    touched
      .filter((partition) => !familiesOf(partition).some((family) => itemsOf(route).includes(family)))
      .map((partition) => ({ route, ...partition, families: familiesOf(partition) })),
  );
}
