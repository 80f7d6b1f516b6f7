import { http } from '../../shared/http/handler.ts';
import { methodNotAllowed } from '../../shared/mcp/not-allowed.ts';
import { mcpRoutes as routes } from '../../shared/route-table/mcp.ts';

export const handler = http(routes.mcpDelete, async () => methodNotAllowed());
