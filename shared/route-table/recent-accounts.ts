/**
 * Recent accounts (issue 12, item 3): the browser's list of accounts that signed in on the service's
 * own pages, kept in a signed HttpOnly cookie (shared/sessions/recent-accounts.ts). The cookie is the
 * only input: no key, no session. Each request counts against a per-IP limit; the HMAC needs the
 * code-hash key. Spread into the one table (shared/routes.ts).
 */
import { RecentAccountList } from '../contracts/recent-accounts.ts';
import type { RouteSpec } from '../route-spec.ts';

export const recentAccountRoutes = {
  listRecentAccounts: {
    method: 'GET',
    path: '/recent-accounts',
    entry: 'functions/recent-accounts/list.ts',
    errorStyle: 'app',
    auth: 'none',
    access: { table: 'readwrite', codeKey: true },
    contract: { responses: { 200: RecentAccountList }, errors: ['rateLimited'] },
  },
} as const satisfies Record<string, RouteSpec>;
