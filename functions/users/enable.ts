import { http } from '../../shared/http/handler.ts';
import { userRoutes as routes } from '../../shared/route-table/users.ts';
import { enableUser } from '../../shared/users/application-users.ts';

export const handler = http(routes.enableUser, async ({ deps, audit, grant, params }) => ({
  body: await enableUser(deps, audit, grant.application, params.userId),
}));
