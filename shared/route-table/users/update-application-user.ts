import { ManagedUser } from '../../contracts/users.ts';
import { type RouteSpec, writeErrors } from '../../route-spec.ts';
import { UserPath } from '../../tenancy/schemas.ts';
import { UpdateUserBody } from '../../users/schemas.ts';
import { manager } from '../item-families.ts';
import { readwrite, writeUsers } from './common.ts';

export const updateApplicationUser = {
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
} as const satisfies RouteSpec;
