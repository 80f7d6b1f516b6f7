import { http } from '../../shared/http/handler.ts';
import * as routes from '../../shared/route-table/applications/delete-application.ts';
import { deleteApplication } from '../../shared/tenancy/applications.ts';

export const handler = http(routes.deleteApplication, async ({ deps, audit, grant }) => {
  await deleteApplication(deps, audit, grant.application);
  return { status: 204 };
});
