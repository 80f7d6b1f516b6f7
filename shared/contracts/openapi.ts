import * as z from 'zod/mini';

/** `GET /openapi.json`: an OpenAPI 3.1.0 document (shared/openapi/document.ts); its parts pass as generated. */
export const OpenApiDocument = z.looseObject({
  openapi: z.literal('3.1.0'),
  info: z.looseObject({ title: z.string(), version: z.string() }),
  paths: z.record(z.string(), z.unknown()),
});
