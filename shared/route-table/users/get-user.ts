import { ManagedUser } from '../../contracts/users.ts';
import { manageErrors, type RouteSpec } from '../../route-spec.ts';
import { UserPath } from '../../tenancy/schemas.ts';
import { manager } from '../item-families.ts';
import { read, readUsers } from './common.ts';

export const getUser = {
  method: 'GET',
  path: '/applications/{applicationId}/users/{userId}',
  entry: 'functions/users/get.ts',
  description: 'Read one end user of the application.',
  errorStyle: 'app',
  auth: 'manage',
  access: { ...read, items: manager },
  permission: readUsers,
  contract: { params: UserPath, responses: { 200: ManagedUser }, errors: manageErrors },
} as const satisfies RouteSpec;
