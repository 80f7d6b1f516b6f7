import { http } from '../../shared/http/handler.ts';
import { organizationRoutes as routes } from '../../shared/route-table/organizations.ts';
import { acceptInvitation } from '../../shared/tenancy/invitations.ts';

export const handler = http(routes.acceptInvitation, async ({ deps, audit, grant, params }) => ({
  body: await acceptInvitation(deps, audit, grant.user, params.organizationId),
}));
