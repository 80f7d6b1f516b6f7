import { http } from '../../shared/http/handler.ts';
import * as routes from '../../shared/route-table/applications/create-application.ts';
import { applicationView, createApplication } from '../../shared/tenancy/applications.ts';

export const handler = http(routes.createApplication, async ({ deps, audit, grant, body }) => ({
  status: 201,
  body: applicationView(await createApplication(deps, audit, grant.organization, body)),
}));
