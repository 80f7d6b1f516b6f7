import { http } from '../../shared/http/handler.ts';
import * as routes from '../../shared/route-table/social/social-callback.ts';
import { finishSocialSignIn } from '../../shared/social/flow.ts';

export const handler = http(routes.socialCallback, async ({ deps, params, rawQuery, client, cookies }) => {
  const { location, cookies: set } = await finishSocialSignIn(deps, {
    applicationId: params.applicationId,
    provider: params.provider,
    query: new URLSearchParams(rawQuery),
    ip: client.ip,
    cookies,
  });
  // 303: the return URL is fetched with GET; no-store keeps the code out of caches; no referrer
  // leaves this URL (its query held the provider's code) to the return page.
  return {
    status: 303,
    headers: { location, 'cache-control': 'no-store', 'referrer-policy': 'no-referrer' },
    cookies: set,
  };
});
