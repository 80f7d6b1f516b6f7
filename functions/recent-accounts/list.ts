import { http } from '../../shared/http/handler.ts';
import { routes } from '../../shared/routes.ts';
import { listRecentAccounts } from '../../shared/sessions/recent-accounts.ts';

export const handler = http(routes.listRecentAccounts, async ({ deps, client, cookies }) => {
  const { items, cookie } = await listRecentAccounts(deps, { cookies, ip: client.ip });
  return {
    body: { items },
    ...(cookie ? { cookies: [cookie] } : {}),
    headers: { 'cache-control': 'no-store' },
  };
});
