import { Statistics } from '../../contracts/statistics.ts';
import { manageErrors, type RouteSpec } from '../../route-spec.ts';
import { ApplicationPath } from '../../tenancy/schemas.ts';
import { StatisticsQuery } from '../../tenancy/statistics-query.ts';
import { manager } from '../item-families.ts';

export const getStatistics = {
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
} as const satisfies RouteSpec;
