import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { describe, expect, it } from 'vitest';
import { callBudgets } from '../../fixtures/call-budgets/table.ts';
import { AGGREGATOR_ENTRY } from '../../lib/statistics-aggregator.ts';
import { readDoc, withoutRegions } from '../../scripts/docs.ts';
import { routeAreas } from '../../shared/openapi/areas.ts';
import { subpathImports } from '../../shared/route-access.ts';
import { credentialItems } from '../../shared/route-table/item-families.ts';
import { type RouteAccess, type RouteSpec, routeList } from '../../shared/routes.ts';
import { keyFamilies } from '../../shared/store/keys.ts';

/**
 * CONTRIBUTING.md, "Adding a route": a route is its entry in the route table, and everything else
 * it needs is derived from the entry or checked against it here, each gap named with what to add.
 * What only a request can show is checked where requests run: the route battery reaching it and the
 * partitions it touches (test/http/item-families.test.ts), the entries it records
 * (test/http/audit-trail.test.ts).
 */
type Route = RouteSpec & { readonly id: string };

/** What the checklist reads besides the route table. */
interface Repository {
  /** Every file under functions/, from the repository root. */
  readonly handlers: readonly string[];
  readonly source: (file: string) => string;
  /** docs/api.md without its generated regions (scripts/docs.ts): what a writer wrote. */
  readonly apiDoc: string;
  /** docs/openapi.json's operations: `paths[path][method].operationId`. */
  readonly openApi: Readonly<Record<string, Readonly<Record<string, { operationId?: string }>>>>;
  /** package.json `imports`. */
  readonly imports: Readonly<Record<string, string>>;
  /** The routes (`METHOD /path`) with a row in the call-budget table (fixtures/call-budgets/table.ts). */
  readonly budgeted: ReadonlySet<string>;
  /** The areas of the table, each an OpenAPI tag (shared/openapi/areas.ts `routeAreas`). */
  readonly areas: ReadonlyArray<{ readonly tag: string; readonly routes: object }>;
}

const root = join(import.meta.dirname, '..', '..');

function filesUnder(dir: string): string[] {
  return readdirSync(join(root, dir), { recursive: true, withFileTypes: true })
    .filter((entry) => entry.isFile())
    .map((entry) => relative(root, join(entry.parentPath, entry.name)));
}

const repository: Repository = {
  // The statistics aggregator's handler is the one function that is no route (lib/statistics-aggregator.ts).
  handlers: filesUnder('functions').filter((file) => file !== AGGREGATOR_ENTRY),
  source: (file) => readFileSync(join(root, file), 'utf8'),
  apiDoc: withoutRegions(readDoc('docs/api.md')),
  openApi: JSON.parse(readDoc('docs/openapi.json')).paths,
  imports: JSON.parse(readDoc('package.json')).imports,
  budgeted: new Set(callBudgets.map((budget) => budget.route)),
  areas: routeAreas,
};

const quoted = (names: readonly string[]) => names.map((name) => `'${name}'`).join(', ');

/** A route's own audit actions: those it declares, but the impersonations any session change may end. */
const ownAudit = (route: Route) => (route.audit ?? []).filter((action) => action !== 'impersonation.ended');

/** What `route` lacks, each as what to add. */
function gapsOf(route: Route, repo: Repository): string[] {
  const gaps: string[] = [];
  const name = `${route.method} ${route.path}`;

  // The handler.
  if (!/^functions\/[a-z-]+\/[a-z-]+\.ts$/.test(route.entry)) {
    gaps.push(`its entry ${route.entry} is not functions/<area>/<action>.ts`);
  } else if (!repo.handlers.includes(route.entry)) {
    gaps.push(`create ${route.entry}, exporting \`handler = http(routes.${route.id}, …)\``);
  } else {
    const served = /export const handler = http\(\s*routes\.(\w+)\s*,/.exec(repo.source(route.entry))?.[1];
    if (served !== route.id) {
      gaps.push(
        `${route.entry} must export \`handler = http(routes.${route.id}, …)\`${served ? `, not routes.${served}` : ''}`,
      );
    }
  }

  // What it touches: item families with table access, at least those its credentials read.
  const access: RouteAccess = route.access;
  const items: readonly string[] = access.items ?? [];
  const credentials = credentialItems[route.auth];
  if (access.table === undefined && (items.length > 0 || credentials.length > 0)) {
    gaps.push(`declare \`access.table\` ('read' or 'readwrite'): it touches item families`);
  }
  if (access.table !== undefined && items.length === 0) {
    gaps.push('declare `access.items`: the item families (shared/store/keys.ts `keyFamilies`) it touches');
  }
  const unknown = items.filter((family) => !(family in keyFamilies));
  if (unknown.length > 0) {
    gaps.push(`access.items names no family of shared/store/keys.ts \`keyFamilies\`: ${quoted(unknown)}`);
  }
  const unread = credentials.filter((family) => !items.includes(family));
  if (unread.length > 0) {
    gaps.push(
      `add ${quoted(unread)} to \`access.items\`: auth '${route.auth}' reads them (shared/route-table/item-families.ts \`credentialItems\`)`,
    );
  }

  // Management routes: the permission the chain checks, and the audit entry of a change.
  if (route.auth === 'manage' && !route.permission) {
    gaps.push('name its `permission` (an action of shared/tenancy/permissions.ts): auth `manage` checks one');
  }
  if (route.auth !== 'manage' && route.permission) {
    gaps.push("drop `permission` or make auth 'manage': only management routes check one");
  }
  if (route.auth === 'manage' && route.method !== 'GET' && ownAudit(route).length === 0) {
    gaps.push('declare `audit`: the actions (shared/tenancy/audit-actions.ts) a committed change records');
  }
  if (route.audit && !(access.table === 'readwrite' && items.includes('audit'))) {
    gaps.push("declare `table: 'readwrite'` and 'audit' in `access.items`: it appends to an audit trail");
  }

  // What it costs: measured by test/http/call-budgets.test.ts, written into docs/data-model.md.
  if (!repo.budgeted.has(name)) {
    gaps.push(
      'add its call budget: a row per scenario, with the exact ordered AWS calls, in fixtures/call-budgets/rows/',
    );
  }

  // The docs: what it does, in its entry (the OpenAPI summary and description), and its area's tag.
  if (!route.description?.trim()) {
    gaps.push(
      'write its `description` in its entry: a first sentence that says what it does (the OpenAPI summary), then what a caller must know',
    );
  }
  const tags = repo.areas.filter((area) => Object.hasOwn(area.routes, route.id)).map((area) => area.tag);
  if (tags.length === 0) {
    gaps.push(
      "add its area's table to `routeAreas` in shared/openapi/areas.ts (a new area: a tag and its description)",
    );
  } else if (tags.length > 1) {
    gaps.push(`it is in more than one area of shared/openapi/areas.ts: ${quoted(tags)}; keep one`);
  }
  if (
    route.method !== 'OPTIONS' &&
    !repo.apiDoc.includes(`\`${route.path}\``) &&
    !repo.apiDoc.includes(`\`${name}\``)
  ) {
    gaps.push(`describe \`${name}\` in docs/api.md, in its area's section (outside the generated tables)`);
  }
  if (repo.openApi[route.path]?.[route.method.toLowerCase()]?.operationId !== route.id) {
    gaps.push(`run \`npm run docs:openapi\`: docs/openapi.json has no ${name} with operationId ${route.id}`);
  }
  return gaps.map((gap) => `${route.id} (${name}): ${gap}`);
}

/** Every gap of the table: each route's, handlers no route serves, and the subpath imports. */
function checklist(routes: readonly Route[], repo: Repository): string[] {
  const entries = new Set(routes.map((route) => route.entry));
  const orphans = repo.handlers
    .filter((file) => !entries.has(file))
    .map(
      (file) =>
        `${file}: add its route's entry to its area's table in shared/route-table/ (or delete the file)`,
    );
  const imports = subpathImports();
  const stale =
    JSON.stringify(repo.imports) === JSON.stringify(imports)
      ? []
      : [`package.json: set \`imports\` to ${JSON.stringify(imports)} (shared/route-access.ts)`];
  return [...routes.flatMap((route) => gapsOf(route, repo)), ...orphans, ...stale];
}

describe('adding a route (CONTRIBUTING.md, "Adding a route")', () => {
  it('every route has everything the checklist asks for', () => {
    expect(checklist(routeList, repository)).toEqual([]);
  });

  it('names what to add to a route that has only its entry', () => {
    // Prepare: a management route with nothing but its entry; a route whose handler serves another,
    // whose table access names no family; a handler no route names; package.json missing an import.
    const bare: Route = {
      id: 'archiveThing',
      method: 'POST',
      path: '/things/{thingId}/archive',
      entry: 'functions/things/archive.ts',
      errorStyle: 'app',
      auth: 'manage',
      access: {},
      contract: { responses: { 204: {} as never }, errors: [] },
    };
    const status = routeList.find((route) => route.id === 'status')!;
    const borrowed: Route = { ...status, id: 'statusAgain', access: { table: 'read' } as RouteAccess };
    const { '#callers': _, ...imports } = repository.imports;
    const repo = { ...repository, handlers: [status.entry, 'functions/things/stray.ts'], imports };

    // Act
    const gaps = checklist([bare, borrowed], repo);

    // Assess
    const bareName = 'archiveThing (POST /things/{thingId}/archive)';
    const borrowedName = 'statusAgain (GET /status)';
    expect(gaps).toEqual([
      `${bareName}: create functions/things/archive.ts, exporting \`handler = http(routes.archiveThing, …)\``,
      `${bareName}: declare \`access.table\` ('read' or 'readwrite'): it touches item families`,
      `${bareName}: add 'user', 'account', 'apiKey', 'application', 'audit', 'organization' to \`access.items\`: auth 'manage' reads them (shared/route-table/item-families.ts \`credentialItems\`)`,
      `${bareName}: name its \`permission\` (an action of shared/tenancy/permissions.ts): auth \`manage\` checks one`,
      `${bareName}: declare \`audit\`: the actions (shared/tenancy/audit-actions.ts) a committed change records`,
      `${bareName}: add its call budget: a row per scenario, with the exact ordered AWS calls, in fixtures/call-budgets/rows/`,
      `${bareName}: write its \`description\` in its entry: a first sentence that says what it does (the OpenAPI summary), then what a caller must know`,
      `${bareName}: add its area's table to \`routeAreas\` in shared/openapi/areas.ts (a new area: a tag and its description)`,
      `${bareName}: describe \`POST /things/{thingId}/archive\` in docs/api.md, in its area's section (outside the generated tables)`,
      `${bareName}: run \`npm run docs:openapi\`: docs/openapi.json has no POST /things/{thingId}/archive with operationId archiveThing`,
      `${borrowedName}: functions/health/status.ts must export \`handler = http(routes.statusAgain, …)\`, not routes.status`,
      `${borrowedName}: declare \`access.items\`: the item families (shared/store/keys.ts \`keyFamilies\`) it touches`,
      `${borrowedName}: add its area's table to \`routeAreas\` in shared/openapi/areas.ts (a new area: a tag and its description)`,
      `${borrowedName}: run \`npm run docs:openapi\`: docs/openapi.json has no GET /status with operationId statusAgain`,
      "functions/things/stray.ts: add its route's entry to its area's table in shared/route-table/ (or delete the file)",
      `package.json: set \`imports\` to ${JSON.stringify(subpathImports())} (shared/route-access.ts)`,
    ]);
  });
});
