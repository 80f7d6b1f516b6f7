import { ScanCommand } from '@aws-sdk/lib-dynamodb';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type RouteId, routeList, routes } from '../../shared/routes.ts';
import { AUDIT_ACTIONS, type AuditAction, auditActions } from '../../shared/tenancy/audit-actions.ts';
import type { TestApp } from '../support/app.ts';
import {
  type Battery,
  deviceAdministrationAndTeardownPaths,
  mcpPaths,
  signInSessionAndManagementPaths,
  startBatteryHosts,
} from '../support/route-battery.ts';
import { routeOf } from '../support/touched-keys.ts';

/**
 * docs/api.md "Audit trail": every route that changes state under a manager's credential records
 * its change, and only the actions it declares in the route table (`audit`). The route battery
 * (test/support/route-battery.ts) drives every route one request at a time; the whole table's audit
 * entries are read before and after each request, so each entry is attributed to the request that
 * wrote it.
 */
let hosts: Awaited<ReturnType<typeof startBatteryHosts>>;
let real: TestApp;
let app: TestApp;
let queue: Promise<unknown> = Promise.resolve();

interface Seen {
  route: RouteId;
  status: number;
  entries: Array<{ action: AuditAction; trail: string }>;
}
const seen: Seen[] = [];

async function auditIds(): Promise<Map<string, { action: AuditAction; trail: string }>> {
  const found = new Map<string, { action: AuditAction; trail: string }>();
  let cursor: Record<string, unknown> | undefined;
  do {
    const page = await real.deps.db.client.send(
      new ScanCommand({
        TableName: real.deps.db.table,
        FilterExpression: 'begins_with(pk, :audit) AND begins_with(sk, :entry)',
        ExpressionAttributeValues: { ':audit': 'AUDIT#', ':entry': 'ENTRY#' },
        ExclusiveStartKey: cursor,
      }),
    );
    for (const item of page.Items ?? []) {
      found.set(`${item.pk}|${item.sk}`, { action: item.action, trail: String(item.pk).slice(6) });
    }
    cursor = page.LastEvaluatedKey;
  } while (cursor);
  return found;
}

beforeAll(async () => {
  hosts = await startBatteryHosts();
  real = hosts.real;
  app = {
    ...real,
    request: (method, path, options) => {
      const run = queue.then(async () => {
        const before = await auditIds();
        const response = await real.request(method, path, options);
        const route = routeOf(method, path);
        if (!route) throw new Error(`no route serves ${method} ${path}`);
        const after = await auditIds();
        const entries = [...after].filter(([id]) => !before.has(id)).map(([, entry]) => entry);
        seen.push({ route, status: response.status, entries });
        return response;
      });
      queue = run.catch(() => undefined);
      return run;
    },
  };
  const battery: Battery = { ...hosts, app };
  await signInSessionAndManagementPaths(battery);
  await deviceAdministrationAndTeardownPaths(battery);
  await mcpPaths(battery);
  await queue;
  // The route battery with a scan of the audit entries around each request: 9 s on a busy 2-core machine.
}, 30_000);
afterAll(() => hosts?.close());

const declared = (route: RouteId): readonly AuditAction[] =>
  (routes[route] as { audit?: readonly AuditAction[] }).audit ?? [];

/** The actions a route's own change records: its declared ones but the impersonations it may end. */
const own = (route: RouteId): readonly AuditAction[] =>
  declared(route).filter((action) => action !== 'impersonation.ended');

/**
 * What the chain itself may record on any route that writes the table: the official origin learned
 * from a key's request (docs/api.md "Origin learning").
 */
const chainActions = AUDIT_ACTIONS.filter((action) => 'byChain' in auditActions[action]);

describe('the audit trail (docs/api.md "Audit trail")', () => {
  it('every action is recorded by some route, or by the chain', () => {
    const recorded = new Set([
      ...routeList.flatMap((route) => declared(route.id as RouteId)),
      ...chainActions,
    ]);
    expect(AUDIT_ACTIONS.filter((action) => !recorded.has(action))).toEqual([]);
  });

  it('no request records an action its route does not declare', () => {
    const undeclared = seen.flatMap(({ route, status, entries }) =>
      entries
        .filter((entry) => !declared(route).includes(entry.action) && !chainActions.includes(entry.action))
        .map((entry) => ({ route, status, action: entry.action })),
    );
    expect(undeclared).toEqual([]);
  });

  it('a refused request records nothing', () => {
    const refused = seen.filter(({ status, entries }) => status >= 400 && entries.length > 0);
    expect(refused).toEqual([]);
  });

  it('each committed change of a management route records exactly one entry of its own actions', () => {
    // The MCP endpoint's calls are mostly reads: its one write tool is checked in test/http/mcp.test.ts.
    const audited = seen.filter(
      ({ route, status }) => status < 300 && routes[route].auth === 'manage' && own(route).length > 0,
    );
    const wrong = audited
      .map(({ route, entries }) => ({
        route,
        recorded: entries.filter((entry) => own(route).includes(entry.action)).map((entry) => entry.action),
      }))
      // A configuration write that changes social sign-in and other settings records one of each.
      .filter(({ route, recorded }) =>
        route === 'replaceConfiguration' || route === 'patchConfiguration'
          ? recorded.length < 1 || new Set(recorded).size !== recorded.length
          : recorded.length !== 1,
      );
    expect(wrong).toEqual([]);
  });

  it('the battery committed a change through every route that records one', () => {
    const committed = new Set(seen.filter(({ status }) => status < 300).map(({ route }) => route));
    const missed = routeList
      .filter((route) => own(route.id as RouteId).length > 0 && !committed.has(route.id as RouteId))
      .map((route) => route.id);
    expect(missed).toEqual([]);
  });
});
