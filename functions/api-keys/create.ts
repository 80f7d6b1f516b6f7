import { http } from '../../shared/http/handler.ts';
import { apiKeyRoutes as routes } from '../../shared/route-table/api-keys.ts';
import { createApiKey } from '../../shared/tenancy/api-keys.ts';

export const handler = http(routes.createApiKey, async ({ deps, grant, body }) => ({
  status: 201,
  body: await createApiKey(deps, { applicationId: grant.application.id, type: body.type }),
}));
