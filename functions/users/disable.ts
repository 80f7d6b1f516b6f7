import { http } from '../../shared/http/handler.ts';
import { userRoutes as routes } from '../../shared/route-table/users.ts';
import { disableUser } from '../../shared/users/application-users.ts';

export const handler = http(routes.disableUser, async ({ deps, grant, params }) => ({
  body: await disableUser(deps, grant.application, params.userId),
}));
