import { http } from '../../shared/http/handler.ts';
import * as routes from '../../shared/route-table/configuration/replace-configuration.ts';
import { replaceConfiguration } from '../../shared/tenancy/configuration.ts';

export const handler = http(routes.replaceConfiguration, async ({ deps, audit, grant, body }) => ({
  body: await replaceConfiguration(deps, audit, grant, body),
}));
