import { http } from '../../shared/http/handler.ts';
import * as routes from '../../shared/route-table/api-keys/create-api-key.ts';
import { createApiKey } from '../../shared/tenancy/api-keys.ts';

export const handler = http(routes.createApiKey, async ({ deps, audit, grant, body }) => ({
  status: 201,
  body: await createApiKey(deps, audit, {
    applicationId: grant.application.id,
    organizationId: grant.application.organizationId,
    type: body.type,
  }),
}));
