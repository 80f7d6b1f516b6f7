import { http } from '../../shared/http/handler.ts';
import * as routes from '../../shared/route-table/tenant-organizations/list-tenant-organizations.ts';
import { listTenantOrganizations } from '../../shared/tenancy/tenant-organizations.ts';

export const handler = http(routes.listTenantOrganizations, async ({ deps, grant, query }) => ({
  body: await listTenantOrganizations(deps, grant.application, query),
}));
