import { http } from '../../shared/http/handler.ts';
import * as routes from '../../shared/route-table/recent-accounts/list-recent-accounts.ts';
import { listRecentAccounts } from '../../shared/sessions/recent-accounts.ts';

export const handler = http(routes.listRecentAccounts, async ({ deps, client, cookies }) => {
  const { items, cookie } = await listRecentAccounts(deps, { cookies, ip: client.ip });
  // Every answer is `Cache-Control: no-store` already (shared/http/respond.ts).
  return { body: { items }, ...(cookie ? { cookies: [cookie] } : {}) };
});
