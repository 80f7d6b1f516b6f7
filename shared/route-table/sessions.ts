/**
 * The signed-in user's own session, sessions and profile, and the profile images it uploads
 * (docs/api.md "Endpoints", "Profile images").
 *
 * Each route is a module of its own in `sessions/`, which its handler imports alone, so a route's
 * bundle holds its own entry and no other; this table lists them, in order, for the one table
 * (shared/routes.ts).
 */

import type { RouteSpec } from '../route-spec.ts';
import { image } from './sessions/image.ts';
import { listSessions } from './sessions/list-sessions.ts';
import { refresh } from './sessions/refresh.ts';
import { revokeOtherSessions } from './sessions/revoke-other-sessions.ts';
import { revokeSessionById } from './sessions/revoke-session-by-id.ts';
import { session } from './sessions/session.ts';
import { signOut } from './sessions/sign-out.ts';
import { updateUser } from './sessions/update-user.ts';

export const sessionRoutes = {
  session,
  refresh,
  signOut,
  listSessions,
  revokeSessionById,
  revokeOtherSessions,
  updateUser,
  image,
} as const satisfies Record<string, RouteSpec>;
