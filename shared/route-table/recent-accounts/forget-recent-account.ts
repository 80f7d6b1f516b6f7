import { RecentAccountList, RecentAccountPath } from '../../contracts/recent-accounts.ts';
import type { RouteSpec } from '../../route-spec.ts';

// Changes only from the service's own pages (the sign-in bridge's Origin rule): 403 otherwise.
export const forgetRecentAccount = {
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
} as const satisfies RouteSpec;
