import { http } from '../../shared/http/handler.ts';
import * as routes from '../../shared/route-table/organizations/list-organization-invitations.ts';
import { listOrganizationInvitations } from '../../shared/tenancy/invitations.ts';
import { unpaginated } from '../../shared/tenancy/pages.ts';

export const handler = http(routes.listOrganizationInvitations, async ({ deps, grant }) => ({
  body: unpaginated(await listOrganizationInvitations(deps, grant.organization)),
}));
