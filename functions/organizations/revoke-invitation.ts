import { http } from '../../shared/http/handler.ts';
import * as routes from '../../shared/route-table/organizations/revoke-invitation.ts';
import { memberActor } from '../../shared/tenancy/authorize.ts';
import { revokeInvitation } from '../../shared/tenancy/invitations.ts';

export const handler = http(routes.revokeInvitation, async ({ deps, audit, grant, params }) => {
  await revokeInvitation(deps, audit, grant.organization, memberActor(grant.principal), params.email);
  return { status: 204 };
});
