import { http } from '../../shared/http/handler.ts';
import { json } from '../../shared/http/types.ts';
import { routes } from '../../shared/routes.ts';
import { requireSession } from '../../shared/sessions/resolve.ts';
import { UpdateUserBody } from '../../shared/users/schemas.ts';
import { updateUser } from '../../shared/users/update-user.ts';

export const handler = http(routes.updateUser, UpdateUserBody, async ({ deps, event, body }) => {
  const { session } = await requireSession(deps, event);
  return json({ user: await updateUser(deps, session, body) });
});
