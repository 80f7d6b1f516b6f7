import { OrganizationView } from '../../contracts/management.ts';
import { type RouteSpec, writeErrors } from '../../route-spec.ts';
import { OrganizationBody, OrganizationPath } from '../../tenancy/schemas.ts';
import { manager } from '../item-families.ts';

export const updateOrganization = {
  method: 'PATCH',
  path: '/organizations/{organizationId}',
  entry: 'functions/organizations/update.ts',
  description: 'Rename an organization.',
  errorStyle: 'app',
  auth: 'manage',
  access: { table: 'readwrite', publicKeys: true, items: [...manager, 'audit'] },
  permission: { action: 'organizations.update', from: 'params' },
  audit: ['organization.updated'],
  contract: {
    params: OrganizationPath,
    body: { json: OrganizationBody },
    responses: { 200: OrganizationView },
    errors: writeErrors,
  },
} as const satisfies RouteSpec;
