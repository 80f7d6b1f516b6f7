/**
 * One request's MCP server (stateless, revision 2026-07-28, JSON answers: a Lambda holds no
 * stream): built for the caller with only the tools its scopes allow, so `tools/list` shows six to
 * an `auth:read` token and seven to `auth:read auth:write`. A tool's failure (an unknown user, a
 * range too long) is its result with `isError`, never an HTTP error (MCP tools: errors in results).
 */
import {
  type CallToolResult,
  createMcpHandler,
  type McpHttpHandler,
  McpServer,
} from '@modelcontextprotocol/server';
import { safeParse } from 'zod/v4/core';
import type { Deps } from '../deps.ts';
import { errorBody, fail } from '../errors.ts';
import { toAppError } from '../http/respond.ts';
import { describeError } from '../log.ts';
import type { McpPrincipal } from './principal.ts';
import { toolSchema } from './tool-schema.ts';
import { mayUseTool, TOOLS, type ToolSpec } from './tools.ts';

/** The one protocol revision served; 2025-era requests are refused, not served (docs/mcp.md, Protocol). */
const MCP_PROTOCOL_VERSION = '2026-07-28';

const SERVER_VERSION = '1.0.0';

function serverFor(deps: Deps, principal: McpPrincipal): McpServer {
  const server = new McpServer(
    { name: deps.config.SERVICE_NAME, version: SERVER_VERSION },
    { supportedProtocolVersions: [MCP_PROTOCOL_VERSION] },
  );
  // Each request has a server of its own and no stream: a change of the tool list (a demotion) is
  // never announced, the next tools/list shows it. The SDK would advertise `listChanged: true`.
  server.server.registerCapabilities({ tools: { listChanged: false } });
  for (const spec of TOOLS) {
    if (!mayUseTool(spec, principal)) continue;
    const writes = spec.scope === 'auth:write';
    server.registerTool(
      spec.name,
      {
        title: spec.title,
        description: spec.description,
        inputSchema: toolSchema(spec.input),
        outputSchema: toolSchema(spec.output),
        annotations: {
          readOnlyHint: !writes,
          destructiveHint: writes,
          idempotentHint: true,
          openWorldHint: false,
        },
      },
      (args) => runTool(deps, principal, spec, args),
    );
  }
  return server;
}

async function runTool(
  deps: Deps,
  principal: McpPrincipal,
  spec: ToolSpec,
  args: unknown,
): Promise<CallToolResult> {
  try {
    const value = await spec.run(deps, principal, args);
    // As the HTTP contracts do: only what the output schema names leaves the service.
    const parsed = safeParse(spec.output, value);
    if (!parsed.success) throw new Error(`The ${spec.name} result does not match its output schema`);
    const output = parsed.data as Record<string, unknown>;
    return { content: [{ type: 'text', text: JSON.stringify(output) }], structuredContent: output };
  } catch (error) {
    const known = toAppError(error);
    if (!known) deps.logger.log('error', 'tool failed', { tool: spec.name, ...describeError(error) });
    const body = errorBody(known ?? fail('internal', 'Internal error'));
    return { content: [{ type: 'text', text: JSON.stringify(body) }], isError: true };
  }
}

/** Each request's caller, for the factory: the SDK hands it the very `Request` being served. */
const callers = new WeakMap<Request, { deps: Deps; principal: McpPrincipal }>();

/**
 * One handler per container (its construction is not free, and it logs its JSON-mode notice once);
 * each request still gets a server of its own, built for its caller.
 */
let handler: McpHttpHandler | undefined;
const mcpHandler = (): McpHttpHandler =>
  (handler ??= createMcpHandler(
    ({ requestInfo }) => {
      const caller = requestInfo && callers.get(requestInfo);
      if (!caller) throw new Error('An MCP request without its caller');
      return serverFor(caller.deps, caller.principal);
    },
    { legacy: 'reject', responseMode: 'json' },
  ));

/** Serves one JSON-RPC message for the authenticated caller; the SDK validates the rest of the exchange. */
export async function serveMcp(
  deps: Deps,
  principal: McpPrincipal,
  request: Request,
  message: unknown,
): Promise<Response> {
  callers.set(request, { deps, principal });
  // No `authInfo`: the factory finds the caller by its request, and the scope step-up is decided
  // before the SDK sees the request (shared/mcp/endpoint.ts).
  return mcpHandler().fetch(request, { parsedBody: message });
}
