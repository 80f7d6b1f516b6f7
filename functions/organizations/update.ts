import { http } from '../../shared/http/handler.ts';
import * as routes from '../../shared/route-table/organizations/update-organization.ts';
import { roleOf } from '../../shared/tenancy/authorize.ts';
import { organizationView, renameOrganization } from '../../shared/tenancy/organizations.ts';

export const handler = http(routes.updateOrganization, async ({ deps, audit, grant, body }) => ({
  body: organizationView(
    await renameOrganization(deps, audit, grant.organization, body.name),
    roleOf(grant.principal),
  ),
}));
