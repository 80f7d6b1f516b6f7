import { ManagedUser } from '../../contracts/users.ts';
import type { RouteSpec } from '../../route-spec.ts';
import { UserPath } from '../../tenancy/schemas.ts';
import { manager, previousRelease } from '../item-families.ts';
import { readwrite, userWriteErrors, writeUsers } from './common.ts';

export const disableUser = {
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
    items: [...manager, ...previousRelease, 'impersonation', 'audit'],
  },
  permission: writeUsers,
  audit: ['user.disabled', 'impersonation.ended'],
  contract: { params: UserPath, responses: { 200: ManagedUser }, errors: userWriteErrors },
} as const satisfies RouteSpec;
