import { http } from '../../shared/http/handler.ts';
import * as routes from '../../shared/route-table/recent-accounts/forget-recent-accounts.ts';
import { forgetAllRecentAccounts } from '../../shared/sessions/recent-accounts.ts';

export const handler = http(routes.forgetRecentAccounts, async ({ deps, client, cookies }) => {
  const { cookie } = await forgetAllRecentAccounts(deps, { ...client, cookies });
  return { body: { items: [] }, cookies: [cookie] };
});
