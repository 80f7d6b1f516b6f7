import { RecentAccountList } from '../../contracts/recent-accounts.ts';
import type { RouteSpec } from '../../route-spec.ts';

export const forgetRecentAccounts = {
  method: 'DELETE',
  path: '/recent-accounts',
  entry: 'functions/recent-accounts/forget-all.ts',
  description:
    "Forget all of the browser's recent accounts and clear the cookie. From the service's own pages only.",
  errorStyle: 'app',
  auth: 'none',
  access: { table: 'readwrite', codeKey: true, items: ['rate'] },
  contract: { responses: { 200: RecentAccountList }, errors: ['forbidden', 'rateLimited'] },
} as const satisfies RouteSpec;
