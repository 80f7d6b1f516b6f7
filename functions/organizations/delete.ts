import { http } from '../../shared/http/handler.ts';
import * as routes from '../../shared/route-table/organizations/delete-organization.ts';
import { deleteOrganization } from '../../shared/tenancy/organizations.ts';

export const handler = http(routes.deleteOrganization, async ({ deps, audit, grant }) => {
  await deleteOrganization(deps, audit, grant.organization);
  return { status: 204 };
});
