import { htmlBody, pageHeaders } from '../../shared/html-page.ts';
import { http } from '../../shared/http/handler.ts';
import { codePage, signInPolicy } from '../../shared/oauth/pages/sign-in.ts';
import { startBridgeSignIn } from '../../shared/oauth/sign-in-bridge.ts';
import * as routes from '../../shared/route-table/oauth-authorize/oauth-sign-in-start.ts';

export const handler = http(routes.oauthSignInStart, async ({ deps, body, client, cookies }) => {
  const { brand, clientTarget, to } = await startBridgeSignIn(deps, {
    requestId: body.request,
    email: body.email,
    account: body.account,
    client: { ...client, cookies },
  });
  return {
    raw: htmlBody(codePage(brand, { requestId: body.request, to })),
    headers: pageHeaders(signInPolicy(brand, clientTarget)),
  };
});
