import { http } from '../../shared/http/handler.ts';
import * as routes from '../../shared/route-table/users/search-users.ts';
import { searchUsers } from '../../shared/users/application-users.ts';

export const handler = http(routes.searchUsers, async ({ deps, grant, query }) => ({
  body: await searchUsers(deps, grant.application, query.q, query),
}));
