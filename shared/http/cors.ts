import type { Config } from '../config.ts';
import { isPlatformOrigin } from '../sessions/cookies.ts';

// `www-authenticate`: a browser MCP client reads the endpoint's 401/403 challenges (docs/mcp.md).
const EXPOSED = 'set-auth-token, retry-after, x-request-id, www-authenticate';
/** The request headers a browser may send: credentials, JSON, and the MCP transport's own (2026-07-28). */
const ALLOWED_HEADERS = 'authorization, content-type, x-api-key, mcp-protocol-version, mcp-method, mcp-name';
const PREFLIGHT_MAX_AGE_SECONDS = 600;

/**
 * CORS for browser callers. Public keys live in browser code on any application's origin
 * (docs/security.md, CORS), so any origin may call without credentials; only platform origins may
 * send and receive the session cookie (`Access-Control-Allow-Credentials`). `set-auth-token` is
 * exposed so browsers can read it.
 */
export function corsHeaders(config: Config, origin: string | undefined): Record<string, string> {
  if (!origin) return {};
  return {
    'access-control-allow-origin': origin,
    'access-control-expose-headers': EXPOSED,
    vary: 'Origin',
    ...(isPlatformOrigin(config, origin) ? { 'access-control-allow-credentials': 'true' } : {}),
  };
}

/** The answer to a preflight (`OPTIONS`): which methods and request headers are allowed. */
export function preflightHeaders(config: Config, origin: string | undefined): Record<string, string> {
  if (!origin) return {};
  return {
    ...corsHeaders(config, origin),
    'access-control-allow-methods': 'GET, POST, PUT, PATCH, DELETE, OPTIONS',
    'access-control-allow-headers': ALLOWED_HEADERS,
    'access-control-max-age': String(PREFLIGHT_MAX_AGE_SECONDS),
  };
}
