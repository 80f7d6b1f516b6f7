import { http } from '../../shared/http/handler.ts';
import { serviceResourceMetadata } from '../../shared/oauth/discovery.ts';
import * as routes from '../../shared/route-table/oauth-discovery/oauth-protected-resource.ts';

export const handler = http(routes.oauthProtectedResource, async ({ deps }) => ({
  body: serviceResourceMetadata(deps.config.ISSUER),
  headers: { 'cache-control': 'public, max-age=3600' },
}));
