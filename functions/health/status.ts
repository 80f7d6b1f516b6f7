import { http } from '../../shared/http/handler.ts';
import * as routes from '../../shared/route-table/service/status.ts';
import { statusReport } from '../../shared/status/checks.ts';

// A failing dependency is a `down` item in a 200 report, never a 500 (docs/api.md, Endpoints).
export const handler = http(routes.status, async ({ deps }) => ({ body: await statusReport(deps) }));
