import { http } from '../../shared/http/handler.ts';
import * as routes from '../../shared/route-table/configuration/get-configuration.ts';
import { configurationView } from '../../shared/tenancy/configuration-document.ts';

export const handler = http(routes.getConfiguration, async ({ grant }) => ({
  body: configurationView(grant.application.configuration),
}));
