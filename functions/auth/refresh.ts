import { http } from '../../shared/http/handler.ts';
import { signInReply } from '../../shared/http/sign-in-reply.ts';
import { routes } from '../../shared/routes.ts';
import { refreshSession } from '../../shared/sessions/manage.ts';
import { requireSession } from '../../shared/sessions/resolve.ts';

export const handler = http(routes.refresh, undefined, async ({ deps, event }) => {
  const { session } = await requireSession(deps, event);
  return signInReply(deps, event, await refreshSession(deps, session));
});
