import { http } from '../../shared/http/handler.ts';
import * as routes from '../../shared/route-table/organizations/decline-invitation.ts';
import { declineInvitation } from '../../shared/tenancy/invitations.ts';

export const handler = http(routes.declineInvitation, async ({ deps, audit, grant, params }) => {
  await declineInvitation(deps, audit, grant.user, params.organizationId);
  return { status: 204 };
});
