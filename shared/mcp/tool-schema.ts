/**
 * The MCP SDK advertises a tool's input and output shapes from `~standard.jsonSchema` (Standard
 * JSON Schema). Our schemas are `zod/mini`, which validates through `~standard` but does not carry
 * that converter: this adds it, so the same schemas the HTTP contracts use describe the tools.
 */
import type { StandardSchemaWithJSON } from '@modelcontextprotocol/server';
import type * as z from 'zod/v4/core';
import { toJSONSchema } from 'zod/v4/core';

/** JSON Schema 2020-12, the dialect MCP tool schemas use. */
const TARGET = 'draft-2020-12';

export function toolSchema<S extends z.$ZodType>(schema: S): StandardSchemaWithJSON<z.input<S>, z.output<S>> {
  const standard = schema['~standard'] as StandardSchemaWithJSON<z.input<S>, z.output<S>>['~standard'];
  return {
    '~standard': {
      ...standard,
      validate: standard.validate,
      jsonSchema: {
        input: () => toJSONSchema(schema, { target: TARGET, io: 'input' }) as Record<string, unknown>,
        output: () => toJSONSchema(schema, { target: TARGET, io: 'output' }) as Record<string, unknown>,
      },
    },
  };
}
