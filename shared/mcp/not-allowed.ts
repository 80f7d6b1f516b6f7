/** GET and DELETE on `/mcp/{applicationId}`: this stateless JSON server opens no stream and keeps no session. */
export const methodNotAllowed = () => ({
  status: 405 as const,
  body: {
    jsonrpc: '2.0' as const,
    id: null,
    error: { code: -32000, message: 'Method not allowed: send JSON-RPC messages by POST' },
  },
  headers: { allow: 'POST' },
});
