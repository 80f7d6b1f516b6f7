import { http } from '../../shared/http/handler.ts';
import * as routes from '../../shared/route-table/api-keys/list-api-keys.ts';
import { listApiKeys } from '../../shared/tenancy/api-keys.ts';
import { unpaginated } from '../../shared/tenancy/pages.ts';

export const handler = http(routes.listApiKeys, async ({ deps, grant }) => ({
  body: unpaginated(await listApiKeys(deps, grant.application.id)),
}));
