import { RecentAccountList } from '../../contracts/recent-accounts.ts';
import type { RouteSpec } from '../../route-spec.ts';

export const listRecentAccounts = {
  method: 'GET',
  path: '/recent-accounts',
  entry: 'functions/recent-accounts/list.ts',
  description:
    "List the browser's recent accounts. From its signed cookie: names and masked addresses, newest first.",
  errorStyle: 'app',
  auth: 'none',
  access: {
    table: 'readwrite',
    codeKey: true,
    // The per-IP limit, the profiles of the cookie's accounts and their applications.
    items: ['rate', 'user', 'application'],
  },
  contract: { responses: { 200: RecentAccountList }, errors: ['rateLimited'] },
} as const satisfies RouteSpec;
