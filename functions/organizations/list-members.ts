import { http } from '../../shared/http/handler.ts';
import * as routes from '../../shared/route-table/organizations/list-members.ts';
import { listMembers } from '../../shared/tenancy/members.ts';
import { unpaginated } from '../../shared/tenancy/pages.ts';

export const handler = http(routes.listMembers, async ({ deps, grant }) => ({
  body: unpaginated(await listMembers(deps, grant.organization)),
}));
