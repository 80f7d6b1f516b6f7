import { http } from '../../shared/http/handler.ts';
import * as routes from '../../shared/route-table/users/update-application-user.ts';
import { updateUser } from '../../shared/users/application-users.ts';

export const handler = http(routes.updateApplicationUser, async ({ deps, audit, grant, params, body }) => ({
  body: await updateUser(deps, audit, grant.application, params.userId, body),
}));
