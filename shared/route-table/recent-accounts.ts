/**
 * Recent accounts (docs/api.md "Recent accounts"): the browser's list of accounts that signed in on
 * the service's own pages, kept in a signed HttpOnly cookie (shared/sessions/recent-accounts.ts). The
 * cookie is the only input: no key, no session. Each request counts against a per-IP limit; the HMAC
 * needs the code-hash key.
 *
 * Each route is a module of its own in `recent-accounts/`, which its handler imports alone, so a route's
 * bundle holds its own entry and no other; this table lists them, in order, for the one table
 * (shared/routes.ts).
 */

import type { RouteSpec } from '../route-spec.ts';
import { forgetRecentAccount } from './recent-accounts/forget-recent-account.ts';
import { forgetRecentAccounts } from './recent-accounts/forget-recent-accounts.ts';
import { listRecentAccounts } from './recent-accounts/list-recent-accounts.ts';

export const recentAccountRoutes = {
  listRecentAccounts,
  forgetRecentAccount,
  forgetRecentAccounts,
} as const satisfies Record<string, RouteSpec>;
