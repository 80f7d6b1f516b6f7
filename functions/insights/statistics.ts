import { http } from '../../shared/http/handler.ts';
import * as routes from '../../shared/route-table/statistics/get-statistics.ts';
import { readStatistics } from '../../shared/tenancy/statistics.ts';

export const handler = http(routes.getStatistics, async ({ deps, grant, query }) => ({
  body: await readStatistics(deps, grant.application, query),
}));
