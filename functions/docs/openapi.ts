import { http } from '../../shared/http/handler.ts';
import { openApiDocument } from '../../shared/openapi/document.ts';
import * as routes from '../../shared/route-table/service/open-api.ts';

/** Generated once per container: it depends on the configuration only. */
let generated: { key: string; document: ReturnType<typeof openApiDocument> } | undefined;

// The description of this deployment (docs/openapi.md), with its own server URL and cookie name; cacheable.
export const handler = http(routes.openApi, async ({ deps }) => {
  const { ISSUER: serverUrl, SERVICE_NAME: serviceName } = deps.config;
  const key = `${serverUrl} ${serviceName}`;
  if (generated?.key !== key) generated = { key, document: openApiDocument({ serverUrl, serviceName }) };
  return {
    body: generated.document,
    headers: { 'cache-control': 'public, max-age=3600' },
  };
});
