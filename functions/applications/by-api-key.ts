import { http } from '../../shared/http/handler.ts';
import * as routes from '../../shared/route-table/applications/application-by-api-key.ts';
import { publicApplication } from '../../shared/tenancy/applications.ts';

export const handler = http(routes.applicationByApiKey, async ({ caller }) => ({
  body: publicApplication(caller.application),
}));
