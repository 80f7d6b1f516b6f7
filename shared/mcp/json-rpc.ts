import type { AppError } from '../errors.ts';

/** JSON-RPC 2.0 §5.1: invalid request, or internal error. */
export const jsonRpcCodeOf = (error: AppError): number => (error.status >= 500 ? -32603 : -32600);

/**
 * The `id` of a JSON-RPC 2.0 request, to answer it with (JSON-RPC 2.0 §5); null for anything else:
 * a notification, a body the chain did not parse (too large, not JSON), an id of another type.
 */
export function jsonRpcIdOf(body: unknown): string | number | null {
  if (typeof body !== 'object' || body === null || Array.isArray(body)) return null;
  const { jsonrpc, method, id } = body as { jsonrpc?: unknown; method?: unknown; id?: unknown };
  if (jsonrpc !== '2.0' || typeof method !== 'string') return null;
  return typeof id === 'string' || (typeof id === 'number' && Number.isFinite(id)) ? id : null;
}
