import { http } from '../../shared/http/handler.ts';
import * as routes from '../../shared/route-table/organizations/accept-invitation.ts';
import { acceptInvitation } from '../../shared/tenancy/invitations.ts';

export const handler = http(routes.acceptInvitation, async ({ deps, audit, grant, params }) => ({
  body: await acceptInvitation(deps, audit, grant.user, params.organizationId),
}));
