import { http } from '../../shared/http/handler.ts';
import * as routes from '../../shared/route-table/recent-accounts/forget-recent-account.ts';
import { forgetRecentAccount } from '../../shared/sessions/recent-accounts.ts';

export const handler = http(routes.forgetRecentAccount, async ({ deps, params, client, cookies }) => {
  const { items, cookie } = await forgetRecentAccount(deps, { ...client, cookies, userId: params.userId });
  return { body: { items }, cookies: [cookie] };
});
