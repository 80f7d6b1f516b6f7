import { http } from '../../shared/http/handler.ts';
import { socialRoutes as routes } from '../../shared/route-table/social.ts';
import { startSocialSignIn } from '../../shared/social/flow.ts';

export const handler = http(routes.socialStart, async ({ deps, params, query, client, cookies }) => {
  const { location, cookie } = await startSocialSignIn(deps, {
    applicationId: params.applicationId,
    provider: params.provider,
    returnTo: query.return_to,
    appState: query.state,
    ip: client.ip,
    cookies,
  });
  return { status: 302, headers: { location, 'cache-control': 'no-store' }, cookies: [cookie] };
});
