/**
 * One request's MCP server (stateless, JSON answers: a Lambda holds no stream), dual-era
 * (docs/mcp.md, Protocol): revision 2026-07-28 by its per-request `_meta` envelope, and the
 * 2025-era revisions by their `initialize` handshake, each request of either served by a server of
 * its own. It is built for the caller with only the tools its scopes allow, so `tools/list` shows six
 * to an `auth:read` token and seven to `auth:read auth:write`. A tool's failure (an unknown user, a
 * range too long) is its result with `isError`, never an HTTP error (MCP tools: errors in results).
 */
import {
  type CallToolResult,
  createMcpHandler,
  isLegacyRequest,
  type jsonSchemaValidator,
  type McpHttpHandler,
  McpServer,
  WebStandardStreamableHTTPServerTransport,
} from '@modelcontextprotocol/server';
import { safeParse } from 'zod/v4/core';
import type { Deps } from '../deps.ts';
import { errorBody, fail, toAppError } from '../errors.ts';
import { describeError } from '../log.ts';
import type { McpPrincipal } from './principal.ts';
import { toolSchema } from './tool-schema.ts';
import { mayUseTool, TOOLS, type ToolSpec } from './tools.ts';

/**
 * The revisions served, newest first (docs/mcp.md, Protocol): the modern one by its envelope, the
 * 2025-era ones by the `initialize` handshake, whose answer names the client's revision when it is
 * one of these and the newest 2025-era one otherwise.
 */
const MCP_PROTOCOL_VERSIONS = ['2026-07-28', '2025-11-25', '2025-06-18'] as const;

const SERVER_VERSION = '1.0.0';

/**
 * The SDK checks a client's answer to an elicitation (a form the server asks its user to fill) against
 * the form's JSON Schema, with Ajv unless told otherwise. This server asks for none: its tools check
 * their arguments with their own zod schemas (docs/mcp.md, Tools). So it gives the SDK a validator that
 * refuses any such answer, and a deployed bundle holds no Ajv (lib/bundling.ts).
 */
const noElicitation: jsonSchemaValidator = {
  getValidator: () => () => ({
    valid: false,
    data: undefined,
    errorMessage: 'This server asks for no elicitation',
  }),
};

function serverFor(deps: Deps, principal: McpPrincipal): McpServer {
  const server = new McpServer(
    { name: deps.config.SERVICE_NAME, version: SERVER_VERSION },
    { supportedProtocolVersions: [...MCP_PROTOCOL_VERSIONS], jsonSchemaValidator: noElicitation },
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
    return { content: [{ type: 'text', text: JSON.stringify(inToolWords(body)) }], isError: true };
  }
}

/**
 * A refused argument in the tool's words: the message names what is wrong with the arguments
 * ("to: from and to span at most 90 days, both included"), not the HTTP request the same domain
 * function would refuse ("The request query is not valid"); code and details are kept.
 */
function inToolWords(body: ReturnType<typeof errorBody>): ReturnType<typeof errorBody> {
  const issues = (body.error.details as { issues?: Array<{ path?: unknown; message?: unknown }> } | undefined)
    ?.issues;
  if (!Array.isArray(issues) || issues.length === 0) return body;
  const words = issues.map(({ path, message }) =>
    path ? `${String(path)}: ${String(message)}` : String(message),
  );
  return { error: { ...body.error, message: `Invalid arguments: ${words.join('; ')}` } };
}

/** Each request's caller, for the factory: the SDK hands it the very `Request` being served. */
const callers = new WeakMap<Request, { deps: Deps; principal: McpPrincipal }>();

/**
 * One handler per container for the modern revision (its construction is not free, and it logs its
 * JSON-mode notice once); each request still gets a server of its own, built for its caller. The
 * 2025-era leg is `serveLegacy`, not the SDK's own fallback, which answers as an event stream.
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
  // The SDK's own routing decision: a message without the modern envelope is 2025-era.
  if (await isLegacyRequest(request, message))
    return serveLegacy(serverFor(deps, principal), request, message);
  callers.set(request, { deps, principal });
  // No `authInfo`: the factory finds the caller by its request, and the scope step-up is decided
  // before the SDK sees the request (shared/mcp/endpoint.ts).
  return mcpHandler().fetch(request, { parsedBody: message });
}

/**
 * A 2025-era message (the `initialize` handshake, or a request after it): the stateless Streamable
 * HTTP transport with no session id (every request may land on another container, and the
 * handshake leaves nothing a later one needs) and JSON answers, closed with the request.
 */
async function serveLegacy(server: McpServer, request: Request, message: unknown): Promise<Response> {
  const transport = new WebStandardStreamableHTTPServerTransport({
    sessionIdGenerator: undefined,
    enableJsonResponse: true,
  });
  await server.connect(transport);
  try {
    return await transport.handleRequest(request, { parsedBody: message });
  } finally {
    await transport.close().catch(() => undefined);
    await server.close().catch(() => undefined);
  }
}
