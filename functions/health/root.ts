import { http } from '../../shared/http/handler.ts';
import { routes } from '../../shared/routes.ts';

// Always 200 while the function is up (docs/api.md, Endpoints); touches no dependency.
export const handler = http(routes.root, async ({ deps }) => ({
  body: {
    status: 'ok',
    service: deps.config.SERVICE_NAME,
    timestamp: new Date(deps.clock.now()).toISOString(),
  },
}));
