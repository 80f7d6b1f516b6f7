import { SessionsRevoked } from '../../contracts/users.ts';
import { manageErrors, type RouteSpec } from '../../route-spec.ts';
import { UserPath } from '../../tenancy/schemas.ts';
import { manager, previousRelease } from '../item-families.ts';
import { readwrite, writeUsers } from './common.ts';

export const revokeUserSessions = {
  method: 'POST',
  path: '/applications/{applicationId}/users/{userId}/revoke-sessions',
  entry: 'functions/users/revoke-sessions.ts',
  description: 'End every session of an end user. Answers how many live sessions ended.',
  errorStyle: 'app',
  auth: 'manage',
  access: { ...readwrite, items: [...manager, ...previousRelease, 'impersonation', 'audit'] },
  permission: writeUsers,
  audit: ['user.sessionsRevoked', 'impersonation.ended'],
  contract: { params: UserPath, responses: { 200: SessionsRevoked }, errors: manageErrors },
} as const satisfies RouteSpec;
