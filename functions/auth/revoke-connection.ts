import { http } from '../../shared/http/handler.ts';
import { endGrant } from '../../shared/oauth/grants.ts';
import * as routes from '../../shared/route-table/oauth-token/revoke-connection.ts';

export const handler = http(routes.revokeConnection, async ({ deps, caller, body }) => ({
  body: { revoked: await endGrant(deps, caller.session.user.id, body.id) },
}));
