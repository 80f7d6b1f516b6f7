import { http } from '../../shared/http/handler.ts';
import { authorizationServerMetadata } from '../../shared/oauth/discovery.ts';
import * as routes from '../../shared/route-table/oauth-discovery/oauth-authorization-server.ts';

// The document changes only with a deploy (its configuration): an hour is safe to cache.
export const handler = http(routes.oauthAuthorizationServer, async ({ deps }) => ({
  body: authorizationServerMetadata(deps.config.ISSUER),
  headers: { 'cache-control': 'public, max-age=3600' },
}));
