import { http } from '../../shared/http/handler.ts';
import { apiKeyRoutes as routes } from '../../shared/route-table/api-keys.ts';
import { revokeApiKey } from '../../shared/tenancy/api-keys.ts';

export const handler = http(routes.revokeApiKey, async ({ deps, grant, params }) => ({
  body: await revokeApiKey(deps, grant.application.id, params.keyId),
}));
