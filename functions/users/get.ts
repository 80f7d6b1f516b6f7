import { http } from '../../shared/http/handler.ts';
import * as routes from '../../shared/route-table/users/get-user.ts';
import { getUser } from '../../shared/users/application-users.ts';

export const handler = http(routes.getUser, async ({ deps, grant, params }) => ({
  body: await getUser(deps, grant.application, params.userId),
}));
