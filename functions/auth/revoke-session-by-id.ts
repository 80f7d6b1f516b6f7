import { http } from '../../shared/http/handler.ts';
import { json } from '../../shared/http/types.ts';
import { routes } from '../../shared/routes.ts';
import { revokeSession } from '../../shared/sessions/manage.ts';
import { requireSession } from '../../shared/sessions/resolve.ts';
import { RevokeSessionBody } from '../../shared/users/schemas.ts';

// Another user's session id is silently ignored: the answer is the same either way.
export const handler = http(routes.revokeSessionById, RevokeSessionBody, async ({ deps, event, body }) => {
  const { session } = await requireSession(deps, event);
  await revokeSession(deps, session, body.id);
  return json({ revoked: true });
});
