/**
 * Insights: an application's statistics (docs/api.md "Insights: statistics"). Spread into the one
 * table (shared/routes.ts).
 */
import { Statistics } from '../contracts/statistics.ts';
import type { RouteSpec } from '../route-spec.ts';
import { ApplicationPath } from '../tenancy/schemas.ts';
import { StatisticsQuery } from '../tenancy/statistics-query.ts';
import { manager } from './item-families.ts';
import { manageErrors } from './organizations.ts';

export const statisticsRoutes = {
  getStatistics: {
    method: 'GET',
    path: '/applications/{applicationId}/statistics',
    entry: 'functions/insights/statistics.ts',
    description:
      "Read an application's statistics by day. Users, new users, sign-ins and active sessions over at most 90 days (the last 30 by default).",
    errorStyle: 'app',
    auth: 'manage',
    access: { table: 'read', publicKeys: true, items: [...manager, 'statistics'] },
    permission: { action: 'statistics.read', from: 'params' },
    contract: {
      params: ApplicationPath,
      query: StatisticsQuery,
      responses: { 200: Statistics },
      errors: manageErrors,
    },
  },
} as const satisfies Record<string, RouteSpec>;
