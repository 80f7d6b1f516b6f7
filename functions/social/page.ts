import { htmlBody, pageHeaders } from '../../shared/html-page.ts';
import { http } from '../../shared/http/handler.ts';
import * as routes from '../../shared/route-table/social/social-page.ts';
import { socialPagePolicy, socialSignInPage } from '../../shared/social/pages.ts';
import { socialPage } from '../../shared/social/sign-in-page.ts';

export const handler = http(routes.socialPage, async ({ deps, params, query, client, cookies }) => {
  const page = await socialPage(deps, {
    applicationId: params.applicationId,
    returnTo: query.return_to,
    appState: query.state,
    appChallenge: query.code_challenge,
    ip: client.ip,
    cookies,
  });
  return { raw: htmlBody(socialSignInPage(page)), headers: pageHeaders(socialPagePolicy(page)) };
});
