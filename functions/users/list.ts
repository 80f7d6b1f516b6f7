import { http } from '../../shared/http/handler.ts';
import * as routes from '../../shared/route-table/users/list-users.ts';
import { listUsers } from '../../shared/users/application-users.ts';

export const handler = http(routes.listUsers, async ({ deps, grant, query }) => ({
  body: await listUsers(deps, grant.application, query),
}));
