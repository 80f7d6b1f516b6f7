import files from '../../dashboard/dist/files.json' with { type: 'json' };
import { dashboardServer } from '../../shared/dashboard/files.ts';
import { http } from '../../shared/http/handler.ts';
import * as routes from '../../shared/route-table/dashboard/dashboard.ts';

const serve = dashboardServer(files);

// The console's page and its built files (docs/dashboard.md, "How it is served").
export const handler = http(routes.dashboard, async ({ params, headers }) => {
  const path = params.proxy === undefined ? '/dashboard' : `/dashboard/${params.proxy}`;
  const file = serve(path, {
    ...(headers['accept-encoding'] === undefined ? {} : { acceptEncoding: headers['accept-encoding'] }),
    ...(headers['if-none-match'] === undefined ? {} : { ifNoneMatch: headers['if-none-match'] }),
  });
  return {
    status: file.status,
    raw: { base64: file.bytes.toString('base64'), contentType: file.contentType },
    headers: file.headers,
  };
});
