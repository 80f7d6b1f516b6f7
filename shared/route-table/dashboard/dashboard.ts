import * as z from 'zod/mini';
import type { RouteSpec } from '../../route-spec.ts';

/** The page (`text/html`), a script (`text/javascript`) or a style sheet (`text/css`). */
const DashboardFile = { raw: 'text/*' };

export const dashboard = {
  method: 'GET',
  path: '/dashboard/{proxy+}',
  alsoAt: ['/dashboard'],
  entry: 'functions/dashboard/serve.ts',
  description:
    'Serve the owner dashboard, a web console over this API. `/dashboard` and any path under it ' +
    'answer the page (the console routes in the browser); `/dashboard/assets/<file>` answers a built ' +
    'script or style sheet, cached for a year, and 404 for a file no build made (docs/dashboard.md).',
  errorStyle: 'app',
  auth: 'none',
  // Nothing in AWS: the files are in the bundle. A role of its own, with no grant but its logs, so
  // the page that runs the console shares its execution role with no other route.
  access: { role: 'dashboard' },
  contract: {
    params: z.object({ proxy: z.optional(z.string()) }),
    headers: z.object({
      'accept-encoding': z.optional(z.string()),
      'if-none-match': z.optional(z.string()),
    }),
    responses: { 200: DashboardFile, 304: DashboardFile, 404: { raw: 'text/plain' } },
    errors: [],
  },
} as const satisfies RouteSpec;
