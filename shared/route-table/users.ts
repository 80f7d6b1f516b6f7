/**
 * An application's end users: list, search and manage (docs/api.md "Users").
 *
 * Each route is a module of its own in `users/`, which its handler imports alone, so a route's
 * bundle holds its own entry and no other; this table lists them, in order, for the one table
 * (shared/routes.ts).
 */

import type { RouteSpec } from '../route-spec.ts';
import { deleteUser } from './users/delete-user.ts';
import { disableUser } from './users/disable-user.ts';
import { enableUser } from './users/enable-user.ts';
import { getUser } from './users/get-user.ts';
import { listUsers } from './users/list-users.ts';
import { revokeUserSessions } from './users/revoke-user-sessions.ts';
import { searchUsers } from './users/search-users.ts';
import { updateApplicationUser } from './users/update-application-user.ts';

export const userRoutes = {
  listUsers,
  searchUsers,
  getUser,
  updateApplicationUser,
  disableUser,
  enableUser,
  deleteUser,
  revokeUserSessions,
} as const satisfies Record<string, RouteSpec>;
