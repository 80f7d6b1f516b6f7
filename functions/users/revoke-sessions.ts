import { http } from '../../shared/http/handler.ts';
import * as routes from '../../shared/route-table/users/revoke-user-sessions.ts';
import { revokeUserSessions } from '../../shared/users/application-users.ts';

export const handler = http(routes.revokeUserSessions, async ({ deps, audit, grant, params }) => ({
  body: await revokeUserSessions(deps, audit, grant.application, params.userId),
}));
