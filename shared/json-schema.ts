import type * as z from 'zod/v4/core';
import { toJSONSchema } from 'zod/v4/core';

/**
 * A zod schema as JSON Schema 2020-12, the dialect both OpenAPI 3.1 (shared/openapi) and MCP tool
 * schemas (shared/mcp/tool-schema.ts) use: the same contracts describe the routes and the tools.
 */
export const jsonSchemaOf = (schema: z.$ZodType, io: 'input' | 'output'): Record<string, unknown> =>
  toJSONSchema(schema, { target: 'draft-2020-12', io }) as Record<string, unknown>;
