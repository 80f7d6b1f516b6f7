import { NoBody } from '../../contracts/common.ts';
import { manageErrors, type RouteSpec } from '../../route-spec.ts';
import { OrganizationPath } from '../../tenancy/schemas.ts';
import { manager } from '../item-families.ts';

export const deleteOrganization = {
  method: 'DELETE',
  path: '/organizations/{organizationId}',
  entry: 'functions/organizations/delete.ts',
  description: 'Delete an organization. Only once it holds no application (`ORGANIZATION_NOT_EMPTY`).',
  errorStyle: 'app',
  auth: 'manage',
  access: {
    table: 'readwrite',
    publicKeys: true,
    items: [...manager, 'organizationApplications', 'invitation', 'audit'],
  },
  permission: { action: 'organizations.delete', from: 'params' },
  audit: ['organization.deleted'],
  contract: {
    params: OrganizationPath,
    responses: { 204: NoBody },
    errors: [...manageErrors, 'organizationNotEmpty', 'rateLimited'],
  },
} as const satisfies RouteSpec;
