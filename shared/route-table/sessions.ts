/**
 * The signed-in user's own session, sessions and profile, and the profile images it uploads
 * (docs/api.md "Endpoints", "Profile images"). Spread into the one table (shared/routes.ts).
 */
import { SignInResult } from '../contracts/common.ts';
import { ConditionalGet, ImagePath } from '../contracts/images.ts';
import { Revoked, SessionInfo, SessionList, SignedOut, UserResult } from '../contracts/sessions.ts';
import { bodyErrors, credentialErrors, type RouteSpec } from '../route-spec.ts';
import { RevokeSessionBody, UpdateUserBody } from '../users/schemas.ts';
import { byKey, bySession, endsSessions } from './item-families.ts';

export const sessionRoutes = {
  session: {
    method: 'GET',
    path: '/auth/session',
    entry: 'functions/auth/session.ts',
    description:
      'Read the current session and its user. `{}` when signed out, `{ application }` for a key ' +
      'alone. Checks the session record, so a revoked token answers 401 at once.',
    errorStyle: 'app',
    auth: 'session-optional',
    access: { table: 'read', publicKeys: true, items: [...bySession, ...byKey, 'impersonation'] },
    // Every page load of every platform asks, signed in or not.
    throttle: { rate: 500, burst: 1000 },
    contract: { responses: { 200: SessionInfo }, errors: [...credentialErrors] },
  },
  refresh: {
    method: 'POST',
    path: '/auth/refresh',
    entry: 'functions/auth/refresh.ts',
    description:
      'Rotate the session token. Same session, new token (also in `set-auth-token`); the old token ' +
      'stops working.',
    errorStyle: 'app',
    auth: 'session',
    access: { table: 'readwrite', sign: true, items: endsSessions },
    // rateLimited: concurrent writes kept cancelling the refresh with its statistics counters.
    contract: {
      responses: { 200: SignInResult },
      errors: [...credentialErrors, 'forbidden', 'rateLimited'],
    },
  },
  signOut: {
    method: 'POST',
    path: '/auth/sign-out',
    entry: 'functions/auth/sign-out.ts',
    description:
      "Sign out. Ends all the user's sessions in the application and clears the cookie; with the " +
      'impersonation cookie, ends that impersonation too. Always 200.',
    errorStyle: 'app',
    auth: 'sign-out',
    access: { table: 'readwrite', publicKeys: true, items: endsSessions },
    audit: ['impersonation.ended'],
    contract: { responses: { 200: SignedOut }, errors: [] },
  },
  listSessions: {
    method: 'GET',
    path: '/auth/list-sessions',
    entry: 'functions/auth/list-sessions.ts',
    description: "List the user's live sessions. Newest first, the current one marked, with device and IP.",
    errorStyle: 'app',
    auth: 'session',
    access: { table: 'read', publicKeys: true, items: [...bySession, ...byKey] },
    contract: { responses: { 200: SessionList }, errors: [...credentialErrors] },
  },
  revokeSessionById: {
    method: 'POST',
    path: '/auth/revoke-session-by-id',
    entry: 'functions/auth/revoke-session-by-id.ts',
    description:
      "End one of the user's sessions by its id. Another user's session id is ignored, with the " +
      'same answer.',
    errorStyle: 'app',
    auth: 'session',
    access: { table: 'readwrite', publicKeys: true, items: endsSessions },
    audit: ['impersonation.ended'],
    contract: {
      body: { json: RevokeSessionBody },
      responses: { 200: Revoked },
      errors: [...bodyErrors, ...credentialErrors, 'forbidden'],
    },
  },
  revokeOtherSessions: {
    method: 'POST',
    path: '/auth/revoke-other-sessions',
    entry: 'functions/auth/revoke-other-sessions.ts',
    description: 'End every session of the user but the current one. Answers how many ended.',
    errorStyle: 'app',
    auth: 'session',
    access: { table: 'readwrite', publicKeys: true, items: endsSessions },
    audit: ['impersonation.ended'],
    contract: { responses: { 200: Revoked }, errors: [...credentialErrors, 'forbidden'] },
  },
  updateUser: {
    method: 'POST',
    path: '/auth/update-user',
    entry: 'functions/auth/update-user.ts',
    description:
      "Change the user's name or profile image. `image` is an https URL, an image data URL (stored " +
      "and answered as its `/images/…` URL) or `''` to remove it (docs/api.md, Profile images).",
    errorStyle: 'app',
    auth: 'session',
    access: { table: 'readwrite', publicKeys: true, items: [...bySession, ...byKey, 'image'] },
    contract: {
      body: { json: UpdateUserBody },
      responses: { 200: UserResult },
      // rateLimited: concurrent changes of the same user kept replacing its image first.
      errors: [...bodyErrors, ...credentialErrors, 'forbidden', 'rateLimited'],
    },
  },
  /** Uploaded profile images, by owner and bytes, deleted with the profile change: public, apart from the session path. */
  image: {
    method: 'GET',
    path: '/images/{id}',
    entry: 'functions/images/get-image.ts',
    description:
      'Fetch an uploaded profile image. Public, by the id in `User.image`; 304 when `If-None-Match` ' +
      'names its ETag; 404 once removed or replaced.',
    errorStyle: 'app',
    auth: 'none',
    access: { table: 'read', items: ['image'] },
    contract: {
      params: ImagePath,
      headers: ConditionalGet,
      responses: { 200: { raw: 'image/*' }, 304: { raw: 'image/*' } },
      errors: ['notFound'],
    },
  },
} as const satisfies Record<string, RouteSpec>;
