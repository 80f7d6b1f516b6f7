/**
 * `POST /mcp/{applicationId}`: the chain's validated request in, the SDK's web `Response` out.
 * Order: Origin (no read), the bearer, its grant and the application (one read) and the caller's
 * membership (one read), a streaming method refused (a Lambda answers once, it holds no stream),
 * the scope a called tool needs (the 403 step-up, before the SDK), then the MCP exchange itself,
 * under the function's deadline. The answer goes back through the chain as raw bytes, so it keeps
 * our request id, CORS and log line.
 */
import type { Deps } from '../deps.ts';
import { ownMcpResource } from '../tenancy/service-resources.ts';
import { insufficientScope } from './challenge.ts';
import { jsonRpcIdOf } from './json-rpc.ts';
import { checkOrigin } from './origin.ts';
import { authenticate } from './principal.ts';
import type { McpHeaders, McpMessage } from './schemas.ts';
import { serveMcp } from './server.ts';
import { mayUseTool, toolNamed } from './tools.ts';

/**
 * The statuses the SDK answers a POST with in JSON mode (202 acknowledges a notification; 406: a
 * 2025-era client that does not accept both JSON and event streams, as that transport requires);
 * the chain has already refused a body too large or not JSON.
 */
type McpStatus = 200 | 400 | 404 | 406;
export type McpAnswer =
  | { status: McpStatus; raw: { base64: string; contentType: string }; headers: Record<string, string> }
  | { status: 202; headers: Record<string, string> };

const ANSWERED = new Set<number>([200, 400, 404, 406]);

/**
 * Methods the SDK serves as an SSE stream whatever the response mode (`subscriptions/listen`):
 * refused before the SDK, as the 2026-07-28 transport refuses a method it does not serve.
 */
const STREAMING = new Set(['subscriptions/listen']);

/** JSON-RPC 2.0 §5.1: the method does not exist or is not available; HTTP 404 on the transport's ladder. */
const METHOD_NOT_FOUND = -32601;

/** Time kept back from the function's remaining time to answer and log before Lambda stops it. */
const DEADLINE_MARGIN_MS = 1000;

/**
 * The transport's headers the SDK checks (MCP-Protocol-Version, Mcp-Method, Mcp-Name); never the
 * credentials. Not the client's content type: the chain accepted any JSON type (`application/*+json`
 * too) and parsed the body, which is passed on re-serialized as `application/json`.
 */
const FORWARDED = ['accept', 'mcp-protocol-version', 'mcp-method', 'mcp-name'] as const;

export async function answerMcp(
  deps: Deps,
  request: {
    applicationId: string;
    headers: McpHeaders;
    message: McpMessage;
    origin: string | undefined;
    /** The TCP peer and its user agent, which a write tool's audit entry names. */
    client: { ip: string; userAgent: string };
    remainingMs: () => number;
  },
): Promise<McpAnswer> {
  checkOrigin(deps.config, request.origin);
  const principal = {
    ...(await authenticate(deps, request.applicationId, request.headers.authorization)),
    client: request.client,
  };
  const { message } = request;
  const streaming = [message.method, request.headers['mcp-method']].find(
    (name) => name !== undefined && STREAMING.has(name),
  );
  if (streaming) return notServed(message, streaming);
  const called = message.method === 'tools/call' ? toolNamed(message.params?.name) : undefined;
  if (called && !mayUseTool(called, principal)) throw insufficientScope(principal.metadata, called.scope);
  const abort = new AbortController();
  const deadline = Math.max(0, request.remainingMs() - DEADLINE_MARGIN_MS);
  const timer = setTimeout(
    () => abort.abort(new Error('The MCP answer missed the function deadline')),
    deadline,
  );
  try {
    const web = webRequest(deps, request, abort.signal);
    const response = await untilAborted(serveMcp(deps, principal, web, message), abort.signal);
    return await fromResponse(deps, response, message, abort.signal);
  } finally {
    clearTimeout(timer);
  }
}

/** 404 with a JSON-RPC "method not found" error: a method this endpoint does not serve. */
function notServed(message: McpMessage, method: string): McpAnswer {
  const text = `Method not found: ${method} is not served (this endpoint answers in JSON and opens no stream)`;
  const body = { jsonrpc: '2.0', id: jsonRpcIdOf(message), error: { code: METHOD_NOT_FOUND, message: text } };
  return {
    status: 404,
    raw: { base64: Buffer.from(JSON.stringify(body)).toString('base64'), contentType: 'application/json' },
    headers: {},
  };
}

/** `work`, or a rejection with the signal's reason once it aborts (a hung SDK call cannot outlive the deadline). */
function untilAborted<T>(work: Promise<T>, signal: AbortSignal): Promise<T> {
  return new Promise<T>((resolve, reject) => {
    const stop = () => reject(signal.reason);
    if (signal.aborted) return stop();
    signal.addEventListener('abort', stop, { once: true });
    work.then(resolve, reject).finally(() => signal.removeEventListener('abort', stop));
  });
}

/** The web `Request` the SDK serves: this endpoint's own URL, the transport headers, the JSON body. */
function webRequest(
  deps: Deps,
  request: { applicationId: string; headers: McpHeaders; message: McpMessage },
  signal: AbortSignal,
) {
  const headers = new Headers();
  for (const name of FORWARDED) {
    const value = request.headers[name];
    if (value !== undefined) headers.set(name, value);
  }
  headers.set('content-type', 'application/json');
  const url = ownMcpResource(deps.config.ISSUER, request.applicationId);
  return new Request(url, { method: 'POST', headers, body: JSON.stringify(request.message), signal });
}

/**
 * The SDK's answer as raw bytes. A stream (`text/event-stream`: a streaming method that slipped
 * past STREAMING) is cancelled and answered as a method not served, never read to its end (it has
 * none); any body is read under the deadline.
 */
async function fromResponse(
  deps: Deps,
  response: Response,
  message: McpMessage,
  signal: AbortSignal,
): Promise<McpAnswer> {
  const headers: Record<string, string> = {};
  const allow = response.headers.get('allow');
  if (allow) headers.allow = allow;
  if (response.status === 202) return { status: 202, headers };
  const contentType = response.headers.get('content-type') ?? 'application/json';
  if (/^\s*text\/event-stream/i.test(contentType)) {
    await response.body?.cancel().catch(() => undefined);
    deps.logger.log('error', 'the MCP server answered a stream', { method: message.method });
    return notServed(message, message.method ?? 'This method');
  }
  if (!ANSWERED.has(response.status)) {
    await response.body?.cancel().catch(() => undefined);
    throw new Error(`The MCP server answered ${response.status}`);
  }
  const reading = response.arrayBuffer();
  const bytes = Buffer.from(
    await untilAborted(reading, signal).catch(async (error: unknown) => {
      await response.body?.cancel().catch(() => undefined);
      throw error;
    }),
  );
  return {
    status: response.status as McpStatus,
    raw: { base64: bytes.toString('base64'), contentType },
    headers,
  };
}
