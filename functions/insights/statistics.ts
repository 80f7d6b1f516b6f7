import { http } from '../../shared/http/handler.ts';
import { statisticsRoutes as routes } from '../../shared/route-table/statistics.ts';
import { readStatistics } from '../../shared/tenancy/statistics.ts';

export const handler = http(routes.getStatistics, async ({ deps, grant, query }) => ({
  body: await readStatistics(deps, grant.application, query),
}));
