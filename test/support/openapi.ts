/**
 * Reading the OpenAPI description (shared/openapi/document.ts) in tests: the schema documented for
 * one route, status and media type, compiled with Ajv's JSON Schema 2020-12 dialect (OpenAPI 3.1's).
 */
import { Ajv2020, type ValidateFunction } from 'ajv/dist/2020.js';
import type { RouteSpec } from '../../shared/routes.ts';

type Json = Record<string, unknown>;

/** An Ajv that knows the formats the contracts use and OpenAPI's `example` keyword. */
export function schemaValidator(): Ajv2020 {
  const ajv = new Ajv2020({ strict: false, allErrors: true });
  ajv.addFormat('email', /^[^@\s]+@[^@\s]+$/);
  ajv.addFormat('uri', (value: string) => URL.canParse(value));
  return ajv;
}

/** The response object documented for a route and status, or undefined. */
export function documentedResponse(document: Json, route: RouteSpec, status: number): Json | undefined {
  const paths = document.paths as Record<string, Record<string, Json>>;
  const operation = paths[route.path]?.[route.method.toLowerCase()];
  const responses = operation?.responses as Record<string, Json> | undefined;
  return responses?.[String(status)];
}

/** A compiled validator per schema object (the document's own objects, so identity is a fine key). */
export function validatorCache(ajv: Ajv2020): (schema: Json) => ValidateFunction {
  const compiled = new Map<Json, ValidateFunction>();
  return (schema) => {
    const known = compiled.get(schema);
    if (known) return known;
    const validate = ajv.compile(schema);
    compiled.set(schema, validate);
    return validate;
  };
}
