import { http } from '../../shared/http/handler.ts';
import { applicationRoutes as routes } from '../../shared/route-table/applications.ts';
import { applicationView } from '../../shared/tenancy/applications.ts';

export const handler = http(routes.getApplication, async ({ grant }) => ({
  body: applicationView(grant.application),
}));
