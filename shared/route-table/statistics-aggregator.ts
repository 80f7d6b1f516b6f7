/**
 * The statistics aggregator's access (docs/data-model.md, Statistics): not a route, but a function
 * whose role is made as the routes' are (lib/access-roles.ts), under a name of its own: the table,
 * only its statistics and the marks of the stream records it has counted.
 */
import type { RouteAccess } from '../route-spec.ts';

export const aggregatorAccess = {
  table: 'readwrite',
  items: ['statistics', 'countedRecord'],
  role: 'statistics',
} as const satisfies RouteAccess;
