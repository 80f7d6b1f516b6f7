import { htmlBody, pageHeaders } from '../../shared/html-page.ts';
import { http } from '../../shared/http/handler.ts';
import { emailPage, signInPolicy } from '../../shared/oauth/pages/sign-in.ts';
import { bridgePage } from '../../shared/oauth/sign-in-bridge.ts';
import * as routes from '../../shared/route-table/oauth-authorize/oauth-sign-in-page.ts';

export const handler = http(routes.oauthSignInPage, async ({ deps, query, client, cookies }) => {
  const { brand, choices } = await bridgePage(deps, { requestId: query.request, cookies, ip: client.ip });
  return {
    raw: htmlBody(emailPage(brand, query.request, choices)),
    headers: pageHeaders(signInPolicy(brand)),
  };
});
