import { http } from '../../shared/http/handler.ts';
import { routes } from '../../shared/routes.ts';
import { listSessions } from '../../shared/sessions/manage.ts';

export const handler = http(routes.listSessions, async ({ deps, caller }) => ({
  body: await listSessions(deps, caller.session),
}));
