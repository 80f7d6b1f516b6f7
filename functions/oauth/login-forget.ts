import { http } from '../../shared/http/handler.ts';
import { forgetBridgeChoice } from '../../shared/oauth/sign-in-bridge.ts';
import * as routes from '../../shared/route-table/oauth-authorize/oauth-sign-in-forget.ts';

export const handler = http(routes.oauthSignInForget, async ({ deps, body, client, cookies }) => {
  const { cookie, returnTo } = await forgetBridgeChoice(deps, {
    requestId: body.request,
    account: body.account,
    client: { ...client, cookies },
  });
  return { status: 303, headers: { location: returnTo }, cookies: [cookie] };
});
