import { http } from '../../shared/http/handler.ts';
import { userRoutes as routes } from '../../shared/route-table/users.ts';
import { enableUser } from '../../shared/users/application-users.ts';

export const handler = http(routes.enableUser, async ({ deps, grant, params }) => ({
  body: await enableUser(deps, grant.application, params.userId),
}));
