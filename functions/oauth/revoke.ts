import { http } from '../../shared/http/handler.ts';
import { revokeToken } from '../../shared/oauth/revoke.ts';
import * as routes from '../../shared/route-table/oauth-token/oauth-revoke.ts';

// RFC 7009 §2.2: 200 whether or not the token was known; an answer about tokens is never cached.
export const handler = http(routes.oauthRevoke, async ({ deps, body, headers }) => {
  await revokeToken(deps, body, headers.authorization);
  return { headers: { 'cache-control': 'no-store', pragma: 'no-cache' } };
});
