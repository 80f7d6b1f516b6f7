import { http } from '../../shared/http/handler.ts';
import { routes } from '../../shared/routes.ts';
import { forgetAllRecentAccounts } from '../../shared/sessions/recent-accounts.ts';

export const handler = http(routes.forgetRecentAccounts, async ({ deps, client, cookies }) => {
  const { cookie } = await forgetAllRecentAccounts(deps, { ...client, cookies });
  return { body: { items: [] }, cookies: [cookie] };
});
