import { http } from '../../shared/http/handler.ts';
import * as routes from '../../shared/route-table/tenant-organizations/update-tenant-organization.ts';
import { renameOrganization } from '../../shared/tenancy/organizations.ts';
import { findTenantOrganization, tenantOrganizationView } from '../../shared/tenancy/tenant-organizations.ts';

export const handler = http(routes.updateTenantOrganization, async ({ deps, audit, grant, params, body }) => {
  const org = await findTenantOrganization(deps, grant.application, params.organizationId);
  return { body: tenantOrganizationView(await renameOrganization(deps, audit, org, body.name)) };
});
