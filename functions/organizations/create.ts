import { http } from '../../shared/http/handler.ts';
import * as routes from '../../shared/route-table/organizations/create-organization.ts';
import { createOrganization, organizationView } from '../../shared/tenancy/organizations.ts';

export const handler = http(routes.createOrganization, async ({ deps, audit, grant, body }) => ({
  status: 201,
  body: organizationView(await createOrganization(deps, audit, grant.user, body.name), 'owner'),
}));
