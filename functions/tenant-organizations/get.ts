import { http } from '../../shared/http/handler.ts';
import * as routes from '../../shared/route-table/tenant-organizations/get-tenant-organization.ts';
import { findTenantOrganization, tenantOrganizationView } from '../../shared/tenancy/tenant-organizations.ts';

export const handler = http(routes.getTenantOrganization, async ({ deps, grant, params }) => ({
  body: tenantOrganizationView(await findTenantOrganization(deps, grant.application, params.organizationId)),
}));
