import { http } from '../../shared/http/handler.ts';
import { methodNotAllowed } from '../../shared/mcp/not-allowed.ts';
import * as routes from '../../shared/route-table/mcp/mcp-delete.ts';

export const handler = http(routes.mcpDelete, async () => methodNotAllowed());
