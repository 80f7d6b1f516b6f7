import { http } from '../../shared/http/handler.ts';
import { applicationRoutes as routes } from '../../shared/route-table/applications.ts';
import { applicationView, updateApplication } from '../../shared/tenancy/applications.ts';

export const handler = http(routes.updateApplication, async ({ deps, audit, grant, body }) => ({
  body: applicationView(await updateApplication(deps, audit, grant, body)),
}));
