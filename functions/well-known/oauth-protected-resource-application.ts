import { fail } from '../../shared/errors.ts';
import { http } from '../../shared/http/handler.ts';
import { applicationResourceMetadata } from '../../shared/oauth/application-resource.ts';
import * as routes from '../../shared/route-table/oauth-discovery/oauth-protected-resource-of-application.ts';

// A found application's document is cached like the static ones; a 404 is not (errors are no-store),
// so an application created a moment later is found at once.
export const handler = http(routes.oauthProtectedResourceOfApplication, async ({ deps, params }) => {
  const metadata = await applicationResourceMetadata(deps, params.id);
  if (!metadata) throw fail('notFound', 'No such application');
  return { body: metadata, headers: { 'cache-control': 'public, max-age=3600' } };
});
