import { http } from '../../shared/http/handler.ts';
import * as routes from '../../shared/route-table/organizations/list-invitations.ts';
import { listInvitations } from '../../shared/tenancy/invitations.ts';
import { unpaginated } from '../../shared/tenancy/pages.ts';

export const handler = http(routes.listInvitations, async ({ deps, grant }) => ({
  body: unpaginated(await listInvitations(deps, grant.user)),
}));
