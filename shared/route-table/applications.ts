/**
 * Applications (docs/api.md "Applications").
 *
 * Each route is a module of its own in `applications/`, which its handler imports alone, so a route's
 * bundle holds its own entry and no other; this table lists them, in order, for the one table
 * (shared/routes.ts).
 */

import type { RouteSpec } from '../route-spec.ts';
import { applicationByApiKey } from './applications/application-by-api-key.ts';
import { createApplication } from './applications/create-application.ts';
import { deleteApplication } from './applications/delete-application.ts';
import { getApplication } from './applications/get-application.ts';
import { listApplications } from './applications/list-applications.ts';
import { updateApplication } from './applications/update-application.ts';

export const applicationRoutes = {
  createApplication,
  listApplications,
  getApplication,
  updateApplication,
  deleteApplication,
  applicationByApiKey,
} as const satisfies Record<string, RouteSpec>;
