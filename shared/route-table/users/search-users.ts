import { ManagedUserList } from '../../contracts/users.ts';
import { manageErrors, type RouteSpec } from '../../route-spec.ts';
import { ApplicationPath, SearchQuery } from '../../tenancy/schemas.ts';
import { manager } from '../item-families.ts';
import { read, readUsers } from './common.ts';

// Before getUser: the local server takes the first route whose path matches (API Gateway the literal one).
export const searchUsers = {
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
} as const satisfies RouteSpec;
