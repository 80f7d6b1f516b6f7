import { http } from '../../shared/http/handler.ts';
import * as routes from '../../shared/route-table/social/social-forget.ts';
import { forgetOnSocialPage } from '../../shared/social/sign-in-page.ts';

export const handler = http(routes.socialForget, async ({ deps, params, body, client, cookies }) => {
  const { location, cookie } = await forgetOnSocialPage(deps, {
    applicationId: params.applicationId,
    account: body.account,
    returnTo: body.return_to,
    appState: body.state,
    appChallenge: body.code_challenge,
    ...client,
    cookies,
  });
  return { status: 303, headers: { location, 'cache-control': 'no-store' }, cookies: [cookie] };
});
