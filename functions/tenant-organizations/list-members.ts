import { http } from '../../shared/http/handler.ts';
import * as routes from '../../shared/route-table/tenant-organizations/list-tenant-members.ts';
import { listMembers } from '../../shared/tenancy/members.ts';
import { unpaginated } from '../../shared/tenancy/pages.ts';
import { findTenantOrganization } from '../../shared/tenancy/tenant-organizations.ts';

export const handler = http(routes.listTenantMembers, async ({ deps, grant, params }) => {
  const org = await findTenantOrganization(deps, grant.application, params.organizationId);
  return { body: unpaginated(await listMembers(deps, org)) };
});
