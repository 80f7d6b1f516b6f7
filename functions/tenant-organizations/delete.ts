import { http } from '../../shared/http/handler.ts';
import * as routes from '../../shared/route-table/tenant-organizations/delete-tenant-organization.ts';
import {
  deleteTenantOrganization,
  findTenantOrganization,
} from '../../shared/tenancy/tenant-organizations.ts';

export const handler = http(routes.deleteTenantOrganization, async ({ deps, audit, grant, params }) => {
  const org = await findTenantOrganization(deps, grant.application, params.organizationId);
  await deleteTenantOrganization(deps, audit, grant.application, org);
  return { status: 204 };
});
