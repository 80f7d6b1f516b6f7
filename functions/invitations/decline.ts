import { http } from '../../shared/http/handler.ts';
import { organizationRoutes as routes } from '../../shared/route-table/organizations.ts';
import { declineInvitation } from '../../shared/tenancy/invitations.ts';

export const handler = http(routes.declineInvitation, async ({ deps, grant, params }) => {
  await declineInvitation(deps, grant.user, params.organizationId);
  return { status: 204 };
});
