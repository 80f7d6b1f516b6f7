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

/** JSON-RPC 2.0 §5.1: an error object; `data` is the server's own. */
const JsonRpcError = z.object({ code: z.int(), message: z.string(), data: z.optional(z.unknown()) });

/**
 * What the MCP SDK answers a POST with in JSON mode when it refuses the message (400, 404, 406), or a
 * request it could not serve (200): a JSON-RPC 2.0 error, `id` as sent or `null` (JSON-RPC 2.0 §5).
 * The chain passes these bytes on unparsed (`raw`): this schema is what the OpenAPI document says of them.
 */
export const McpErrorAnswer = z.object({
  jsonrpc: z.literal('2.0'),
  id: z.union([z.string(), z.number(), z.null()]),
  error: JsonRpcError,
});

/** A served request's answer: a JSON-RPC 2.0 response, its `result` an MCP result object (docs/mcp.md). */
export const McpAnswer = z.union([
  z.object({
    jsonrpc: z.literal('2.0'),
    id: z.union([z.string(), z.number()]),
    result: z.record(z.string(), z.unknown()),
  }),
  McpErrorAnswer,
]);
