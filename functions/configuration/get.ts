import { http } from '../../shared/http/handler.ts';
import { configurationRoutes as routes } from '../../shared/route-table/configuration.ts';

export const handler = http(routes.getConfiguration, async ({ grant }) => ({
  body: grant.application.configuration,
}));
