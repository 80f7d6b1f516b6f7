import { NoBody } from '../../contracts/common.ts';
import { manageErrors, type RouteSpec } from '../../route-spec.ts';
import { ApplicationPath } from '../../tenancy/schemas.ts';
import { manager } from '../item-families.ts';

export const deleteApplication = {
  method: 'DELETE',
  path: '/applications/{applicationId}',
  entry: 'functions/applications/delete.ts',
  description:
    'Delete an application. Revokes all its keys and ends its impersonations; its users and trail stay stored, out of reach.',
  errorStyle: 'app',
  auth: 'manage',
  access: {
    table: 'readwrite',
    publicKeys: true,
    // Its running impersonations end with it (their records, sessions and trail entries).
    items: [...manager, 'organizationApplications', 'resource', 'audit', 'impersonation'],
  },
  permission: { action: 'applications.delete', from: 'params' },
  audit: ['application.deleted', 'impersonation.ended'],
  contract: {
    params: ApplicationPath,
    responses: { 204: NoBody },
    errors: [...manageErrors, 'rateLimited'],
  },
} as const satisfies RouteSpec;
