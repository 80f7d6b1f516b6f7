import { http } from '../../shared/http/handler.ts';
import { apiKeyRoutes as routes } from '../../shared/route-table/api-keys.ts';
import { listApiKeys } from '../../shared/tenancy/api-keys.ts';
import { unpaginated } from '../../shared/tenancy/pages.ts';

export const handler = http(routes.listApiKeys, async ({ deps, grant }) => ({
  body: unpaginated(await listApiKeys(deps, grant.application.id)),
}));
