/**
 * The per-application MCP endpoint (docs/mcp.md; docs/api.md "MCP endpoint"). Auth `none`: its bearer
 * is an OAuth access token for this endpoint's resource, which the MCP domain verifies itself
 * (shared/mcp/principal.ts); no session or key is read.
 *
 * Each route is a module of its own in `mcp/`, which its handler imports alone, so a route's
 * bundle holds its own entry and no other; this table lists them, in order, for the one table
 * (shared/routes.ts).
 */

import type { RouteSpec } from '../route-spec.ts';
import { mcp } from './mcp/mcp.ts';
import { mcpDelete } from './mcp/mcp-delete.ts';
import { mcpGet } from './mcp/mcp-get.ts';

export const mcpRoutes = { mcp, mcpGet, mcpDelete } as const satisfies Record<string, RouteSpec>;
