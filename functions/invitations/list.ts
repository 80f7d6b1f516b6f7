import { http } from '../../shared/http/handler.ts';
import { organizationRoutes as routes } from '../../shared/route-table/organizations.ts';
import { listInvitations } from '../../shared/tenancy/invitations.ts';
import { unpaginated } from '../../shared/tenancy/pages.ts';

export const handler = http(routes.listInvitations, async ({ deps, grant }) => ({
  body: unpaginated(await listInvitations(deps, grant.user)),
}));
