import { http } from '../../shared/http/handler.ts';
import * as routes from '../../shared/route-table/sessions/update-user.ts';
import { updateUser } from '../../shared/users/update-user.ts';

export const handler = http(routes.updateUser, async ({ deps, caller, body }) => ({
  body: { user: await updateUser(deps, caller.session, body) },
}));
