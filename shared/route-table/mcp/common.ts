/** What the routes of mcp.ts share (shared/route-table/mcp.ts). */

import { McpErrorBody } from '../../mcp/schemas.ts';
import { ApplicationPath } from '../../tenancy/schemas.ts';

/** Streamable HTTP: a server that opens no SSE stream answers GET (and DELETE, with no session) 405. */
export const notAllowed = {
  errorStyle: 'mcp',
  auth: 'none',
  access: {},
  contract: { params: ApplicationPath, responses: { 405: McpErrorBody }, errors: ['invalidRequest'] },
} as const;
