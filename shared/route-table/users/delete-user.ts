import { NoBody } from '../../contracts/common.ts';
import type { RouteSpec } from '../../route-spec.ts';
import { UserPath } from '../../tenancy/schemas.ts';
import { manager, previousRelease } from '../item-families.ts';
import { readwrite, userWriteErrors, writeUsers } from './common.ts';

export const deleteUser = {
  method: 'DELETE',
  path: '/applications/{applicationId}/users/{userId}',
  entry: 'functions/users/delete.ts',
  description:
    'Delete an end user. Its sessions and memberships go first; a delete that failed midway is finished by repeating it.',
  errorStyle: 'app',
  auth: 'manage',
  access: {
    ...readwrite,
    items: [...manager, ...previousRelease, 'image', 'userMemberships', 'impersonation', 'audit'],
  },
  permission: writeUsers,
  audit: ['user.deleted', 'impersonation.ended'],
  contract: { params: UserPath, responses: { 204: NoBody }, errors: userWriteErrors },
} as const satisfies RouteSpec;
