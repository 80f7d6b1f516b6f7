import { http } from '../../shared/http/handler.ts';
import * as routes from '../../shared/route-table/organizations/update-member.ts';
import { memberActor } from '../../shared/tenancy/authorize.ts';
import { changeRole } from '../../shared/tenancy/members.ts';

export const handler = http(routes.updateMember, async ({ deps, audit, grant, params, body }) => ({
  body: await changeRole(
    deps,
    audit,
    grant.organization,
    memberActor(grant.principal),
    params.userId,
    body.role,
  ),
}));
