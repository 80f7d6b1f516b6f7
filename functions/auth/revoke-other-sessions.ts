import { http } from '../../shared/http/handler.ts';
import { json } from '../../shared/http/types.ts';
import { routes } from '../../shared/routes.ts';
import { revokeOtherSessions } from '../../shared/sessions/manage.ts';
import { requireSession } from '../../shared/sessions/resolve.ts';

export const handler = http(routes.revokeOtherSessions, undefined, async ({ deps, event }) => {
  const { session } = await requireSession(deps, event);
  return json({ revoked: true, count: await revokeOtherSessions(deps, session) });
});
