import { http } from '../../shared/http/handler.ts';
import { organizationRoutes as routes } from '../../shared/route-table/organizations.ts';
import { acceptInvitation } from '../../shared/tenancy/invitations.ts';

export const handler = http(routes.acceptInvitation, async ({ deps, grant, params }) => ({
  body: await acceptInvitation(deps, grant.user, params.organizationId),
}));
