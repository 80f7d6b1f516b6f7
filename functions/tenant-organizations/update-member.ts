import { http } from '../../shared/http/handler.ts';
import * as routes from '../../shared/route-table/tenant-organizations/update-tenant-member.ts';
import { changeRole } from '../../shared/tenancy/members.ts';
import { applicationManager, findTenantOrganization } from '../../shared/tenancy/tenant-organizations.ts';

export const handler = http(routes.updateTenantMember, async ({ deps, audit, grant, params, body }) => {
  const org = await findTenantOrganization(deps, grant.application, params.organizationId);
  return { body: await changeRole(deps, audit, org, applicationManager, params.userId, body.role) };
});
