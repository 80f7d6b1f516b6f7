/** An application's end users: list, search and manage (docs/api.md "Users"). Spread into shared/routes.ts. */
import { NoBody } from '../contracts/common.ts';
import { ManagedUser, ManagedUserList, SessionsRevoked } from '../contracts/users.ts';
import type { RouteSpec } from '../route-spec.ts';
import { ApplicationPath, PageQuery, SearchQuery, UserPath } from '../tenancy/schemas.ts';
import { UpdateUserBody } from '../users/schemas.ts';
import { manager } from './item-families.ts';
import { manageErrors, writeErrors } from './organizations.ts';

const read = { table: 'read', publicKeys: true } as const;
const readwrite = { table: 'readwrite', publicKeys: true } as const;
const readUsers = { action: 'users.read', from: 'params' } as const;
const writeUsers = { action: 'users.write', from: 'params' } as const;
/** A write on one user: no such user is 404; DynamoDB's transaction conflicts answer 429 busy. */
const userWriteErrors = [...manageErrors, 'rateLimited'] as const;

export const userRoutes = {
  listUsers: {
    method: 'GET',
    path: '/applications/{applicationId}/users',
    entry: 'functions/users/list.ts',
    description: "List an application's end users. By address, paged by `limit` and `offset`.",
    errorStyle: 'app',
    auth: 'manage',
    access: { ...read, items: [...manager, 'applicationUsers'] },
    permission: readUsers,
    contract: {
      params: ApplicationPath,
      query: PageQuery,
      responses: { 200: ManagedUserList },
      errors: manageErrors,
    },
  },
  // Before getUser: the local server takes the first route whose path matches (API Gateway the literal one).
  searchUsers: {
    method: 'GET',
    path: '/applications/{applicationId}/users/search',
    entry: 'functions/users/search.ts',
    description:
      "Search an application's end users by the start of their address or name. Case-insensitive, by address, paged.",
    errorStyle: 'app',
    auth: 'manage',
    access: { ...read, items: [...manager, 'applicationUsers'] },
    permission: readUsers,
    contract: {
      params: ApplicationPath,
      query: SearchQuery,
      responses: { 200: ManagedUserList },
      errors: manageErrors,
    },
  },
  getUser: {
    method: 'GET',
    path: '/applications/{applicationId}/users/{userId}',
    entry: 'functions/users/get.ts',
    description: 'Read one end user of the application.',
    errorStyle: 'app',
    auth: 'manage',
    access: { ...read, items: manager },
    permission: readUsers,
    contract: { params: UserPath, responses: { 200: ManagedUser }, errors: manageErrors },
  },
  updateApplicationUser: {
    method: 'PATCH',
    path: '/applications/{applicationId}/users/{userId}',
    entry: 'functions/users/update.ts',
    description: "Change an end user's name or profile image, as `POST /auth/update-user` does.",
    errorStyle: 'app',
    auth: 'manage',
    access: { ...readwrite, items: [...manager, 'image', 'audit'] },
    permission: writeUsers,
    audit: ['user.updated'],
    contract: {
      params: UserPath,
      body: { json: UpdateUserBody },
      responses: { 200: ManagedUser },
      errors: writeErrors,
    },
  },
  disableUser: {
    method: 'POST',
    path: '/applications/{applicationId}/users/{userId}/disable',
    entry: 'functions/users/disable.ts',
    description:
      'Disable an end user. Its tokens are refused from the answer on, its sessions are deleted and it cannot sign in.',
    errorStyle: 'app',
    auth: 'manage',
    access: {
      ...readwrite,
      // Ending the user's sessions ends a live impersonation of it too: its record and audit entry.
      items: [...manager, 'statistics', 'impersonation', 'audit'],
    },
    permission: writeUsers,
    audit: ['user.disabled', 'impersonation.ended'],
    contract: { params: UserPath, responses: { 200: ManagedUser }, errors: userWriteErrors },
  },
  enableUser: {
    method: 'POST',
    path: '/applications/{applicationId}/users/{userId}/enable',
    entry: 'functions/users/enable.ts',
    description: 'Enable a disabled end user. Its old sessions stay ended.',
    errorStyle: 'app',
    auth: 'manage',
    access: { ...readwrite, items: [...manager, 'audit'] },
    permission: writeUsers,
    audit: ['user.enabled'],
    contract: { params: UserPath, responses: { 200: ManagedUser }, errors: userWriteErrors },
  },
  deleteUser: {
    method: 'DELETE',
    path: '/applications/{applicationId}/users/{userId}',
    entry: 'functions/users/delete.ts',
    description:
      'Delete an end user. Its sessions and memberships go first; a delete that failed midway is finished by repeating it.',
    errorStyle: 'app',
    auth: 'manage',
    access: {
      ...readwrite,
      items: [...manager, 'image', 'statistics', 'userMemberships', 'impersonation', 'audit'],
    },
    permission: writeUsers,
    audit: ['user.deleted', 'impersonation.ended'],
    contract: { params: UserPath, responses: { 204: NoBody }, errors: userWriteErrors },
  },
  revokeUserSessions: {
    method: 'POST',
    path: '/applications/{applicationId}/users/{userId}/revoke-sessions',
    entry: 'functions/users/revoke-sessions.ts',
    description: 'End every session of an end user. Answers how many live sessions ended.',
    errorStyle: 'app',
    auth: 'manage',
    access: { ...readwrite, items: [...manager, 'statistics', 'impersonation', 'audit'] },
    permission: writeUsers,
    audit: ['user.sessionsRevoked', 'impersonation.ended'],
    contract: { params: UserPath, responses: { 200: SessionsRevoked }, errors: manageErrors },
  },
} as const satisfies Record<string, RouteSpec>;
