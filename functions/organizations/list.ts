import { http } from '../../shared/http/handler.ts';
import * as routes from '../../shared/route-table/organizations/list-organizations.ts';
import { listOrganizationsOf } from '../../shared/tenancy/organizations.ts';
import { unpaginated } from '../../shared/tenancy/pages.ts';

export const handler = http(routes.listOrganizations, async ({ deps, grant }) => ({
  body: unpaginated(await listOrganizationsOf(deps, grant.user.id)),
}));
