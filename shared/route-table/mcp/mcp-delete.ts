import type { RouteSpec } from '../../route-spec.ts';
import { notAllowed } from './common.ts';

export const mcpDelete = {
  method: 'DELETE',
  path: '/mcp/{applicationId}',
  entry: 'functions/mcp/delete.ts',
  description:
    'End an MCP session: refused. A stateless server keeps no session, so this always answers 405 with `Allow: POST` and a JSON-RPC error.',
  ...notAllowed,
} as const satisfies RouteSpec;
