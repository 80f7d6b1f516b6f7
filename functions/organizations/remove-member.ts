import { http } from '../../shared/http/handler.ts';
import * as routes from '../../shared/route-table/organizations/remove-member.ts';
import { memberActor } from '../../shared/tenancy/authorize.ts';
import { removeMember } from '../../shared/tenancy/members.ts';

export const handler = http(routes.removeMember, async ({ deps, audit, grant, params }) => {
  await removeMember(deps, audit, grant.organization, memberActor(grant.principal), params.userId);
  return { status: 204 };
});
