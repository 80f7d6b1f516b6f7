/**
 * The MCP SDK advertises a tool's input and output shapes from `~standard.jsonSchema` (Standard
 * JSON Schema). Our schemas are `zod/mini`, which validates through `~standard` but does not carry
 * that converter: this adds it, so the same schemas the HTTP contracts use describe the tools.
 */
import type { StandardSchemaWithJSON } from '@modelcontextprotocol/server';
import type * as z from 'zod/v4/core';
import { jsonSchemaOf } from '../json-schema.ts';

// A tool's schemas are the same on every request: converted once per container, then reused.
const converted = new WeakMap<z.$ZodType, StandardSchemaWithJSON<unknown, unknown>>();

export function toolSchema<S extends z.$ZodType>(schema: S): StandardSchemaWithJSON<z.input<S>, z.output<S>> {
  const known = converted.get(schema);
  if (known) return known as StandardSchemaWithJSON<z.input<S>, z.output<S>>;
  const standard = schema['~standard'] as StandardSchemaWithJSON<z.input<S>, z.output<S>>['~standard'];
  const input = jsonSchemaOf(schema, 'input');
  const output = jsonSchemaOf(schema, 'output');
  const described: StandardSchemaWithJSON<z.input<S>, z.output<S>> = {
    '~standard': {
      ...standard,
      validate: standard.validate,
      jsonSchema: { input: () => input, output: () => output },
    },
  };
  converted.set(schema, described as StandardSchemaWithJSON<unknown, unknown>);
  return described;
}
