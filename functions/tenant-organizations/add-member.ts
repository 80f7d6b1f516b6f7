import { http } from '../../shared/http/handler.ts';
import * as routes from '../../shared/route-table/tenant-organizations/add-tenant-member.ts';
import { addMember } from '../../shared/tenancy/members.ts';
import { applicationManager, findTenantOrganization } from '../../shared/tenancy/tenant-organizations.ts';

export const handler = http(routes.addTenantMember, async ({ deps, audit, grant, params, body }) => {
  const org = await findTenantOrganization(deps, grant.application, params.organizationId);
  return { status: 201, body: await addMember(deps, audit, org, applicationManager, body) };
});
