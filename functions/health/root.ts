import { http } from '../../shared/http/handler.ts';
import * as routes from '../../shared/route-table/service/root.ts';

// Always 200 while the function is up (docs/api.md, Endpoints); touches no dependency.
export const handler = http(routes.root, async ({ deps }) => ({
  body: {
    status: 'ok',
    service: deps.config.SERVICE_NAME,
    timestamp: new Date(deps.clock.now()).toISOString(),
  },
}));
