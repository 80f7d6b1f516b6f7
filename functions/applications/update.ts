import { http } from '../../shared/http/handler.ts';
import * as routes from '../../shared/route-table/applications/update-application.ts';
import { applicationView, updateApplication } from '../../shared/tenancy/applications.ts';

export const handler = http(routes.updateApplication, async ({ deps, audit, grant, body }) => ({
  body: applicationView(await updateApplication(deps, audit, grant, body)),
}));
