import { http } from '../../shared/http/handler.ts';
import * as routes from '../../shared/route-table/applications/get-application.ts';
import { applicationView } from '../../shared/tenancy/applications.ts';

export const handler = http(routes.getApplication, async ({ grant }) => ({
  body: applicationView(grant.application),
}));
