import { TenantOrganizationList } from '../../contracts/users.ts';
import { manageErrors, type RouteSpec } from '../../route-spec.ts';
import { ApplicationPath, PageQuery } from '../../tenancy/schemas.ts';
import { manager } from '../item-families.ts';
import { base, read, readOrgs } from './common.ts';

export const listTenantOrganizations = {
  method: 'GET',
  path: base,
  entry: 'functions/tenant-organizations/list.ts',
  description: "List an application's tenant organizations. By id, paged by `limit` and `offset`.",
  errorStyle: 'app',
  auth: 'manage',
  // The organizations' total: the application's counters (docs/data-model.md, Statistics).
  access: { ...read, items: [...manager, 'applicationOrganizations', 'statistics'] },
  permission: readOrgs,
  contract: {
    params: ApplicationPath,
    query: PageQuery,
    responses: { 200: TenantOrganizationList },
    errors: manageErrors,
  },
} as const satisfies RouteSpec;
