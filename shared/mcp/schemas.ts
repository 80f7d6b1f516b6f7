/** The request and answers of `/mcp/{applicationId}` as the route contract states them (shared/route-table/mcp.ts). */
import * as z from 'zod/mini';

/** The headers the endpoint reads: the bearer, and those the Streamable HTTP transport defines. */
export const McpHeaders = z.object({
  authorization: z.optional(z.string()),
  accept: z.optional(z.string()),
  'content-type': z.optional(z.string()),
  'mcp-protocol-version': z.optional(z.string()),
  'mcp-method': z.optional(z.string()),
  'mcp-name': z.optional(z.string()),
});
export type McpHeaders = z.infer<typeof McpHeaders>;

/** One JSON-RPC 2.0 message (revision 2026-07-28 has no batches); the SDK validates the rest. */
export const McpMessage = z.looseObject({
  jsonrpc: z.literal('2.0'),
  method: z.optional(z.string()),
  params: z.optional(z.looseObject({ name: z.optional(z.unknown()) })),
});
export type McpMessage = z.infer<typeof McpMessage>;

/** A JSON-RPC error with no request to answer (`id: null`), e.g. the 405 of GET and DELETE. */
export const McpErrorBody = z.object({
  jsonrpc: z.literal('2.0'),
  id: z.null(),
  error: z.object({ code: z.int(), message: z.string() }),
});
