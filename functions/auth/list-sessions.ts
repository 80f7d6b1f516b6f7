import { http } from '../../shared/http/handler.ts';
import * as routes from '../../shared/route-table/sessions/list-sessions.ts';
import { listSessions } from '../../shared/sessions/manage.ts';

export const handler = http(routes.listSessions, async ({ deps, caller }) => ({
  body: await listSessions(deps, caller.session),
}));
