import { http } from '../../shared/http/handler.ts';
import * as routes from '../../shared/route-table/tenant-organizations/create-tenant-organization.ts';
import {
  createTenantOrganization,
  tenantOrganizationView,
} from '../../shared/tenancy/tenant-organizations.ts';

export const handler = http(routes.createTenantOrganization, async ({ deps, audit, grant, body }) => ({
  status: 201,
  body: tenantOrganizationView(await createTenantOrganization(deps, audit, grant.application, body)),
}));
