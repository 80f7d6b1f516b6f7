import { http } from '../../shared/http/handler.ts';
import * as routes from '../../shared/route-table/users/disable-user.ts';
import { disableUser } from '../../shared/users/application-users.ts';

export const handler = http(routes.disableUser, async ({ deps, audit, grant, params }) => ({
  body: await disableUser(deps, audit, grant.application, params.userId),
}));
