import { ApiKeyList } from '../../contracts/management.ts';
import { manageErrors, type RouteSpec } from '../../route-spec.ts';
import { ApplicationPath } from '../../tenancy/schemas.ts';
import { manager } from '../item-families.ts';

export const listApiKeys = {
  method: 'GET',
  path: '/applications/{applicationId}/api-keys',
  entry: 'functions/api-keys/list.ts',
  description:
    "List an application's keys. Newest first, each by its prefix; revoked ones stay listed for 30 days.",
  errorStyle: 'app',
  auth: 'manage',
  access: { table: 'read', publicKeys: true, items: manager },
  permission: { action: 'apiKeys.list', from: 'params' },
  contract: { params: ApplicationPath, responses: { 200: ApiKeyList }, errors: manageErrors },
} as const satisfies RouteSpec;
