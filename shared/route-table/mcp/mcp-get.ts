import type { RouteSpec } from '../../route-spec.ts';
import { notAllowed } from './common.ts';

export const mcpGet = {
  method: 'GET',
  path: '/mcp/{applicationId}',
  entry: 'functions/mcp/get.ts',
  description:
    'Open an event stream: refused. A stateless JSON server opens no stream, so this always answers 405 with `Allow: POST` and a JSON-RPC error.',
  ...notAllowed,
} as const satisfies RouteSpec;
