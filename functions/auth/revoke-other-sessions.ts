import { http } from '../../shared/http/handler.ts';
import * as routes from '../../shared/route-table/sessions/revoke-other-sessions.ts';
import { revokeOtherSessions } from '../../shared/sessions/manage.ts';

export const handler = http(routes.revokeOtherSessions, async ({ deps, caller }) => ({
  body: { revoked: true, count: await revokeOtherSessions(deps, caller.session) },
}));
