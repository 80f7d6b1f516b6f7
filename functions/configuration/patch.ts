import { http } from '../../shared/http/handler.ts';
import * as routes from '../../shared/route-table/configuration/patch-configuration.ts';
import { patchConfiguration } from '../../shared/tenancy/configuration.ts';

export const handler = http(routes.patchConfiguration, async ({ deps, audit, grant, body }) => ({
  body: await patchConfiguration(deps, audit, grant, body),
}));
