import { http } from '../../shared/http/handler.ts';
import * as routes from '../../shared/route-table/organizations/get-organization.ts';
import { roleOf } from '../../shared/tenancy/authorize.ts';
import { organizationView } from '../../shared/tenancy/organizations.ts';

export const handler = http(routes.getOrganization, async ({ grant }) => ({
  body: organizationView(grant.organization, roleOf(grant.principal)),
}));
