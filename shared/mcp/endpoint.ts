/**
 * `POST /mcp/{applicationId}`: the chain's validated request in, the SDK's web `Response` out.
 * Order: Origin (no read), the bearer and its grant (one read) and the application (one read), the
 * scope a called tool needs (the 403 step-up, before the SDK), then the MCP exchange itself. The
 * answer goes back through the chain as raw bytes, so it keeps our request id, CORS and log line.
 */
import type { Deps } from '../deps.ts';
import type { RawBody } from '../http/respond.ts';
import { insufficientScope } from './challenge.ts';
import { checkOrigin } from './origin.ts';
import { authenticate } from './principal.ts';
import type { McpHeaders, McpMessage } from './schemas.ts';
import { serveMcp } from './server.ts';
import { toolNamed } from './tools.ts';

/**
 * The statuses the SDK answers a modern POST with in JSON mode (202 acknowledges a notification);
 * the chain has already refused a body too large or not JSON.
 */
type McpStatus = 200 | 400 | 404;
export type McpAnswer =
  | { status: McpStatus; raw: RawBody; headers: Record<string, string> }
  | { status: 202; headers: Record<string, string> };

const ANSWERED = new Set<number>([200, 400, 404]);

/** The transport's headers the SDK checks (MCP-Protocol-Version, Mcp-Method, Mcp-Name); never the credentials. */
const FORWARDED = ['accept', 'content-type', 'mcp-protocol-version', 'mcp-method', 'mcp-name'] as const;

export async function answerMcp(
  deps: Deps,
  request: { applicationId: string; headers: McpHeaders; message: McpMessage; origin: string | undefined },
): Promise<McpAnswer> {
  checkOrigin(deps.config, request.origin);
  const principal = await authenticate(deps, request.applicationId, request.headers.authorization);
  const called =
    request.message.method === 'tools/call' ? toolNamed(request.message.params?.name) : undefined;
  if (called && !principal.scopes.includes(called.scope))
    throw insufficientScope(principal.metadata, called.scope);
  const response = await serveMcp(deps, principal, webRequest(deps, request), request.message);
  return fromResponse(response);
}

/** The web `Request` the SDK serves: this endpoint's own URL, the transport headers, the JSON body. */
function webRequest(
  deps: Deps,
  request: { applicationId: string; headers: McpHeaders; message: McpMessage },
) {
  const headers = new Headers();
  for (const name of FORWARDED) {
    const value = request.headers[name];
    if (value !== undefined) headers.set(name, value);
  }
  const url = `${deps.config.ISSUER.replace(/\/+$/, '')}/mcp/${encodeURIComponent(request.applicationId)}`;
  return new Request(url, { method: 'POST', headers, body: JSON.stringify(request.message) });
}

async function fromResponse(response: Response): Promise<McpAnswer> {
  const headers: Record<string, string> = {};
  const allow = response.headers.get('allow');
  if (allow) headers.allow = allow;
  if (response.status === 202) return { status: 202, headers };
  if (!ANSWERED.has(response.status)) throw new Error(`The MCP server answered ${response.status}`);
  const bytes = Buffer.from(await response.arrayBuffer());
  const contentType = response.headers.get('content-type') ?? 'application/json';
  return {
    status: response.status as McpStatus,
    raw: { base64: bytes.toString('base64'), contentType },
    headers,
  };
}
