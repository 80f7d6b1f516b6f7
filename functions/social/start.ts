import { http } from '../../shared/http/handler.ts';
import * as routes from '../../shared/route-table/social/social-start.ts';
import { startSocialSignIn } from '../../shared/social/flow.ts';

export const handler = http(routes.socialStart, async ({ deps, params, query, client, cookies }) => {
  const { location, cookie } = await startSocialSignIn(deps, {
    applicationId: params.applicationId,
    provider: params.provider,
    returnTo: query.return_to,
    appState: query.state,
    appChallenge: query.code_challenge,
    ip: client.ip,
    cookies,
  });
  // No referrer: the provider need not see the application's state and return URL.
  return {
    status: 302,
    headers: { location, 'cache-control': 'no-store', 'referrer-policy': 'no-referrer' },
    cookies: [cookie],
  };
});
