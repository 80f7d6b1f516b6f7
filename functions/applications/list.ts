import { http } from '../../shared/http/handler.ts';
import * as routes from '../../shared/route-table/applications/list-applications.ts';
import { applicationView, listApplications } from '../../shared/tenancy/applications.ts';

export const handler = http(routes.listApplications, async ({ deps, grant, query }) => {
  const { items, page } = await listApplications(deps, grant.organization, query);
  return { body: { items: items.map(applicationView), page } };
});
