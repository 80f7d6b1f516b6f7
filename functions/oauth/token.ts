import { http } from '../../shared/http/handler.ts';
import { exchangeToken } from '../../shared/oauth/token.ts';
import * as routes from '../../shared/route-table/oauth-token/oauth-token.ts';

// RFC 6749 §5.1: a token answer is never cached.
export const handler = http(routes.oauthToken, async ({ deps, body, headers }) => ({
  body: await exchangeToken(deps, body, headers.authorization),
  headers: { 'cache-control': 'no-store', pragma: 'no-cache' },
}));
