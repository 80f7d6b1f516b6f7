import { http } from '../../shared/http/handler.ts';
import * as routes from '../../shared/route-table/users/enable-user.ts';
import { enableUser } from '../../shared/users/application-users.ts';

export const handler = http(routes.enableUser, async ({ deps, audit, grant, params }) => ({
  body: await enableUser(deps, audit, grant.application, params.userId),
}));
