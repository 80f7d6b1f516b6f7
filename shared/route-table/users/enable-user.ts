import { ManagedUser } from '../../contracts/users.ts';
import type { RouteSpec } from '../../route-spec.ts';
import { UserPath } from '../../tenancy/schemas.ts';
import { manager } from '../item-families.ts';
import { readwrite, userWriteErrors, writeUsers } from './common.ts';

export const enableUser = {
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
} as const satisfies RouteSpec;
