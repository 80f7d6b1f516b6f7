import { http } from '../../shared/http/handler.ts';
import { organizationRoutes as routes } from '../../shared/route-table/organizations.ts';
import { memberActor } from '../../shared/tenancy/authorize.ts';
import { addMember } from '../../shared/tenancy/members.ts';

export const handler = http(routes.addMember, async ({ deps, grant, body }) => ({
  status: 201,
  body: await addMember(deps, grant.organization, memberActor(grant.principal), body),
}));
