import { http } from '../../shared/http/handler.ts';
import * as routes from '../../shared/route-table/tenant-organizations/remove-tenant-member.ts';
import { removeMember } from '../../shared/tenancy/members.ts';
import { applicationManager, findTenantOrganization } from '../../shared/tenancy/tenant-organizations.ts';

export const handler = http(routes.removeTenantMember, async ({ deps, audit, grant, params }) => {
  const org = await findTenantOrganization(deps, grant.application, params.organizationId);
  await removeMember(deps, audit, org, applicationManager, params.userId);
  return { status: 204 };
});
