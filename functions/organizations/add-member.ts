import { http } from '../../shared/http/handler.ts';
import * as routes from '../../shared/route-table/organizations/add-member.ts';
import { memberActor } from '../../shared/tenancy/authorize.ts';
import { inviteMember } from '../../shared/tenancy/invitations.ts';

export const handler = http(routes.addMember, async ({ deps, audit, grant, body }) => ({
  status: 202,
  body: {
    invitation: await inviteMember(deps, audit, grant.organization, memberActor(grant.principal), body),
  },
}));
