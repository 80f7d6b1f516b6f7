import { ApplicationList } from '../../contracts/management.ts';
import { manageErrors, type RouteSpec } from '../../route-spec.ts';
import { OrganizationPath, PageQuery } from '../../tenancy/schemas.ts';
import { manager } from '../item-families.ts';

export const listApplications = {
  method: 'GET',
  path: '/organizations/{organizationId}/applications',
  entry: 'functions/applications/list.ts',
  description: "List an organization's applications. Oldest first, paged by `limit` and `offset`.",
  errorStyle: 'app',
  auth: 'manage',
  access: { table: 'read', publicKeys: true, items: [...manager, 'organizationApplications'] },
  permission: { action: 'applications.list', from: 'params' },
  contract: {
    params: OrganizationPath,
    query: PageQuery,
    responses: { 200: ApplicationList },
    errors: manageErrors,
  },
} as const satisfies RouteSpec;
