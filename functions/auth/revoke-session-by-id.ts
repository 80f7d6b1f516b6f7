import { http } from '../../shared/http/handler.ts';
import * as routes from '../../shared/route-table/sessions/revoke-session-by-id.ts';
import { revokeSession } from '../../shared/sessions/manage.ts';

// Another user's session id is silently ignored; the answer is the same either way (docs/api.md, Endpoints).
export const handler = http(routes.revokeSessionById, async ({ deps, caller, body }) => {
  await revokeSession(deps, caller.session, body.id);
  return { body: { revoked: true } };
});
