import { describe, expect, it } from 'vitest';
import { accessProfileKey } from '../../lib/access-profile.ts';
import { leadingKeyPatterns } from '../../lib/grants.ts';
import { routeList } from '../../shared/routes.ts';
import type { ItemFamily } from '../../shared/store/keys.ts';
import { keyFamilies } from '../../shared/store/keys.ts';
import { roleStatements } from './policies.ts';
import { routesByProfile, synthDefault } from './synth.ts';

const { template, logicalId, routeFunction, onlyResourceOf } = synthDefault();
const tableId = onlyResourceOf('AWS::DynamoDB::Table');
const profiles = routesByProfile(routeList);

/** The item families a route declares (`access.items`). */
const itemsOf = (route: (typeof routeList)[number]): readonly ItemFamily[] => route.access.items ?? [];

/** The families of every route of `route`'s profile: what its shared role may touch. */
const profileItems = (route: (typeof routeList)[number]) =>
  profiles.get(accessProfileKey(route.access))!.flatMap(itemsOf);

/** The LeadingKeys patterns each DynamoDB grant of the route's role carries, on the table and on the indexes. */
function partitionGrants(route: (typeof routeList)[number]) {
  const statements = roleStatements(template, logicalId(routeFunction(route.id).role)).filter((s) =>
    s.actions.some((action) => action.startsWith('dynamodb:')),
  );
  const onIndex = (resource: unknown) => JSON.stringify(resource).includes('/index/');
  const patterns = (where: 'table' | 'index') =>
    statements
      .filter((s) => s.resources.some((resource) => (where === 'index') === onIndex(resource)))
      .map((s) => s.condition);
  return { statements, table: patterns('table'), index: patterns('index') };
}

const onPartitions = (patterns: string[]) => ({
  'ForAllValues:StringLike': { 'dynamodb:LeadingKeys': patterns },
});

describe('dynamodb:LeadingKeys: each role reaches only the item families its routes declare', () => {
  it.each(routeList.filter((route) => route.access.table))(
    '$id: every table grant carries LeadingKeys with exactly its profile’s families, its own among them',
    (route) => {
      const grants = partitionGrants(route);
      const tableKeys = leadingKeyPatterns(profileItems(route), 'table');
      const indexKeys = leadingKeyPatterns(profileItems(route), 'index');
      expect(grants.statements.length).toBeGreaterThan(0);
      // No DynamoDB grant without the condition, and none with another operator beside it.
      for (const statement of grants.statements) {
        expect(Object.keys(statement.condition ?? {}), route.id).toEqual(['ForAllValues:StringLike']);
      }
      // Reads reach every family; writes every family but the audit trails, which only PutItem
      // reaches (append-only: no role updates or deletes an entry).
      const trail = keyFamilies.audit.pattern;
      const tableStatements = grants.statements.filter((s) =>
        s.resources.every((resource) => !JSON.stringify(resource).includes('/index/')),
      );
      const reads = tableStatements.find((s) => s.actions.includes('dynamodb:GetItem'));
      expect(JSON.stringify(reads?.condition), route.id).toBe(JSON.stringify(onPartitions(tableKeys)));
      for (const statement of tableStatements.filter((s) => s !== reads)) {
        const reached = statement.condition?.['ForAllValues:StringLike']?.[
          'dynamodb:LeadingKeys'
        ] as string[];
        if (reached.includes(trail)) {
          expect(statement.actions, route.id).toEqual(['dynamodb:PutItem']);
          expect(reached).toEqual([trail]);
        } else {
          expect(reached).toEqual(tableKeys.filter((pattern) => pattern !== trail));
        }
      }
      if (route.access.table === 'readwrite' && tableKeys.includes(trail)) {
        expect(
          tableStatements.some((s) => s.actions.join() === 'dynamodb:PutItem'),
          route.id,
        ).toBe(true);
      }
      expect(grants.index.map((c) => JSON.stringify(c))).toEqual(
        indexKeys.length === 0 ? [] : [JSON.stringify(onPartitions(indexKeys))],
      );
      // The route's own families are among the patterns (a shared role has its profile's union).
      for (const where of ['table', 'index'] as const) {
        const own = leadingKeyPatterns(itemsOf(route), where);
        expect(where === 'table' ? tableKeys : indexKeys).toEqual(expect.arrayContaining(own));
      }
      // Table statements name the table only; index statements the indexes only, and only Query.
      for (const statement of grants.statements) {
        const resources = statement.resources.map((resource) => JSON.stringify(resource));
        if (resources.some((resource) => resource.includes('/index/'))) {
          expect(statement.actions).toEqual(['dynamodb:Query']);
          expect(resources.every((resource) => resource.includes('/index/'))).toBe(true);
        } else {
          expect(resources).toEqual([JSON.stringify({ 'Fn::GetAtt': [tableId, 'Arn'] })]);
        }
      }
    },
  );

  it('gives a role no pattern that covers every partition', () => {
    for (const route of routeList.filter((r) => r.access.table)) {
      for (const condition of [...partitionGrants(route).table, ...partitionGrants(route).index]) {
        const patterns = (condition as ReturnType<typeof onPartitions>)['ForAllValues:StringLike'][
          'dynamodb:LeadingKeys'
        ];
        expect(patterns.filter((pattern) => pattern === '*' || pattern.startsWith('*'))).toEqual([]);
      }
    }
  });
});
