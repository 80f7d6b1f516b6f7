import { preflightHeaders } from '../../shared/http/cors.ts';
import { http } from '../../shared/http/handler.ts';
import * as routes from '../../shared/route-table/service/preflight.ts';

export const handler = http(routes.preflight, async ({ deps, client }) => ({
  status: 204,
  headers: preflightHeaders(deps.config, client.origin),
}));
