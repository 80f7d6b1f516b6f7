import { http } from '../../shared/http/handler.ts';
import { json } from '../../shared/http/types.ts';
import { routes } from '../../shared/routes.ts';
import { sessionsOf } from '../../shared/sessions/manage.ts';
import { requireSession } from '../../shared/sessions/resolve.ts';
import { sessionSummary } from '../../shared/sessions/session.ts';

// Newest first, not paginated: `total` and `hasMore` are null (SPEC §2 Page).
export const handler = http(routes.listSessions, undefined, async ({ deps, event }) => {
  const { session: current } = await requireSession(deps, event);
  const items = (await sessionsOf(deps, current.user.id)).map((s) => sessionSummary(s, current.session.id));
  return json({ items, page: { limit: items.length, offset: 0, total: null, hasMore: null } });
});
