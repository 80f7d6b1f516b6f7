import { http } from '../../shared/http/handler.ts';
import { methodNotAllowed } from '../../shared/mcp/not-allowed.ts';
import * as routes from '../../shared/route-table/mcp/mcp-get.ts';

export const handler = http(routes.mcpGet, async () => methodNotAllowed());
