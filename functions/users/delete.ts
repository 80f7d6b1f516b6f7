import { http } from '../../shared/http/handler.ts';
import * as routes from '../../shared/route-table/users/delete-user.ts';
import { deleteUser } from '../../shared/users/delete-user.ts';

export const handler = http(routes.deleteUser, async ({ deps, audit, grant, params }) => {
  await deleteUser(deps, audit, grant.application, params.userId);
  return { status: 204 };
});
