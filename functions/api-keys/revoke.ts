import { http } from '../../shared/http/handler.ts';
import * as routes from '../../shared/route-table/api-keys/revoke-api-key.ts';
import { revokeApiKey } from '../../shared/tenancy/api-keys.ts';

export const handler = http(routes.revokeApiKey, async ({ deps, audit, grant, params }) => ({
  body: await revokeApiKey(deps, audit, grant.application, params.keyId),
}));
