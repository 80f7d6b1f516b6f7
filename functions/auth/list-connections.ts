import { http } from '../../shared/http/handler.ts';
import { listConnections } from '../../shared/oauth/grants.ts';
import * as routes from '../../shared/route-table/oauth-token/list-connections.ts';

export const handler = http(routes.listConnections, async ({ deps, caller }) => ({
  body: await listConnections(deps, caller.session.user.id),
}));
