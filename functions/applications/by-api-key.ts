import { http } from '../../shared/http/handler.ts';
import { applicationRoutes as routes } from '../../shared/route-table/applications.ts';
import { publicApplication } from '../../shared/tenancy/applications.ts';

export const handler = http(routes.applicationByApiKey, async ({ caller }) => ({
  body: publicApplication(caller.application),
}));
