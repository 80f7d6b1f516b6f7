import { ManagedUserList } from '../../contracts/users.ts';
import { manageErrors, type RouteSpec } from '../../route-spec.ts';
import { ApplicationPath, PageQuery } from '../../tenancy/schemas.ts';
import { manager } from '../item-families.ts';
import { read, readUsers } from './common.ts';

export const listUsers = {
  method: 'GET',
  path: '/applications/{applicationId}/users',
  entry: 'functions/users/list.ts',
  description: "List an application's end users. By address, paged by `limit` and `offset`.",
  errorStyle: 'app',
  auth: 'manage',
  // The users' total: the application's counters (docs/data-model.md, Statistics).
  access: { ...read, items: [...manager, 'applicationUsers', 'statistics'] },
  permission: readUsers,
  contract: {
    params: ApplicationPath,
    query: PageQuery,
    responses: { 200: ManagedUserList },
    errors: manageErrors,
  },
} as const satisfies RouteSpec;
