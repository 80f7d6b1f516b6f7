/**
 * Writes the OpenAPI description (shared/openapi/document.ts) to docs/openapi.json:
 * `npm run docs:openapi`. test/unit/openapi.test.ts fails when the committed file differs. A deployed
 * stack serves its own, with its own server URL and cookie name, at `GET /openapi.json`.
 */
import { writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { openApiDocument } from '../shared/openapi/document.ts';

export const OPENAPI_DOC = fileURLToPath(new URL('../docs/openapi.json', import.meta.url));

/** The committed document: the local server (`npm start`) with the default service name. */
export const renderOpenApi = (): string =>
  `${JSON.stringify(openApiDocument({ serverUrl: 'http://127.0.0.1:3000', serviceName: 'doorcode' }), null, 2)}\n`;

if (process.argv[1] === fileURLToPath(import.meta.url)) writeFileSync(OPENAPI_DOC, renderOpenApi());
