import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import {
  DOC,
  documentedTable,
  renderAuditTable,
  renderPermissionTable,
} from '../../scripts/docs-permissions.ts';
import { routeList } from '../../shared/routes.ts';
import { permissions } from '../../shared/tenancy/permissions.ts';

describe('the permission matrix', () => {
  it('is written out in docs/api.md exactly as the code holds it (npm run docs:permissions)', () => {
    expect(documentedTable(readFileSync(DOC, 'utf8'))).toBe(renderPermissionTable());
  });

  it('lists every audit action with the routes that record it (npm run docs:permissions)', () => {
    expect(documentedTable(readFileSync(DOC, 'utf8'), 'audit-actions')).toBe(renderAuditTable());
  });

  it('names only actions some route uses, and every management route names one', () => {
    const used = new Set(routeList.flatMap((route) => (route.permission ? [route.permission.action] : [])));
    // members.change is decided inside members.leave's route for others than oneself, and
    // socialSignIn.write inside the configuration writes' routes for a change of social sign-in.
    expect([...used, 'members.change', 'socialSignIn.write'].sort()).toEqual(
      expect.arrayContaining(Object.keys(permissions).sort()),
    );
    for (const route of routeList)
      expect(route.auth === 'manage', route.id).toBe(route.permission !== undefined);
  });
});

describe('docs/api.md', () => {
  it('documents every route of the table, by method and path', () => {
    const doc = readFileSync(DOC, 'utf8');
    const missing = routeList
      .filter((route) => route.method !== 'OPTIONS')
      .filter(
        (route) => !doc.includes(`\`${route.path}\``) && !doc.includes(`\`${route.method} ${route.path}\``),
      )
      .map((route) => `${route.method} ${route.path}`);
    expect(missing).toEqual([]);
  });
});
