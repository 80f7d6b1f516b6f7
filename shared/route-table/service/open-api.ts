import { OpenApiDocument } from '../../contracts/openapi.ts';
import type { RouteSpec } from '../../route-spec.ts';

/** The OpenAPI 3.1.0 description generated from this table (shared/openapi/; docs/openapi.md). */
export const openApi = {
  method: 'GET',
  path: '/openapi.json',
  entry: 'functions/docs/openapi.ts',
  description:
    "Describe this deployment's interface. This OpenAPI 3.1.0 document, generated from the route " +
    'table, with this deployment as its server and its session cookie names (docs/openapi.md).',
  errorStyle: 'app',
  auth: 'none',
  access: {},
  contract: { responses: { 200: OpenApiDocument }, errors: [] },
} as const satisfies RouteSpec;
