import { http } from '../../shared/http/handler.ts';
import { endGrant } from '../../shared/oauth/grants.ts';
import { routes } from '../../shared/routes.ts';

export const handler = http(routes.revokeConnection, async ({ deps, caller, body }) => ({
  body: { revoked: await endGrant(deps, caller.session.user.id, body.id) },
}));
