import { http } from '../../shared/http/handler.ts';
import { organizationRoutes as routes } from '../../shared/route-table/organizations.ts';
import { deleteOrganization } from '../../shared/tenancy/organizations.ts';

export const handler = http(routes.deleteOrganization, async ({ deps, grant }) => {
  await deleteOrganization(deps, grant.organization);
  return { status: 204 };
});
