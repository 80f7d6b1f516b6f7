/**
 * Recent accounts (docs/api.md "Recent accounts"): the browser's list of accounts that signed in on
 * the service's own pages, kept in a signed HttpOnly cookie (shared/sessions/recent-accounts.ts). The
 * cookie is the only input: no key, no session. Each request counts against a per-IP limit; the HMAC
 * needs the code-hash key. Spread into the one table (shared/routes.ts).
 */
import { RecentAccountList, RecentAccountPath } from '../contracts/recent-accounts.ts';
import type { RouteSpec } from '../route-spec.ts';

export const recentAccountRoutes = {
  listRecentAccounts: {
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
  },
  // Changes only from the service's own pages (the sign-in bridge's Origin rule): 403 otherwise.
  forgetRecentAccount: {
    method: 'DELETE',
    path: '/recent-accounts/{userId}',
    entry: 'functions/recent-accounts/forget.ts',
    description: "Forget one of the browser's recent accounts. From the service's own pages only.",
    errorStyle: 'app',
    auth: 'none',
    access: { table: 'readwrite', codeKey: true, items: ['rate', 'user', 'application'] },
    contract: {
      params: RecentAccountPath,
      responses: { 200: RecentAccountList },
      errors: ['invalidRequest', 'forbidden', 'rateLimited'],
    },
  },
  forgetRecentAccounts: {
    method: 'DELETE',
    path: '/recent-accounts',
    entry: 'functions/recent-accounts/forget-all.ts',
    description:
      "Forget all of the browser's recent accounts and clear the cookie. From the service's own pages only.",
    errorStyle: 'app',
    auth: 'none',
    access: { table: 'readwrite', codeKey: true, items: ['rate'] },
    contract: { responses: { 200: RecentAccountList }, errors: ['forbidden', 'rateLimited'] },
  },
} as const satisfies Record<string, RouteSpec>;
