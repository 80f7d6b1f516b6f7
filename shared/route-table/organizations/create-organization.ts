import { OrganizationView } from '../../contracts/management.ts';
import { type RouteSpec, writeErrors } from '../../route-spec.ts';
import { OrganizationBody } from '../../tenancy/schemas.ts';
import { manager } from '../item-families.ts';

export const createOrganization = {
  method: 'POST',
  path: '/organizations',
  entry: 'functions/organizations/create.ts',
  description:
    'Create a platform organization. The caller becomes its `owner`; an account creates at most 10 (`ORGANIZATION_LIMIT_REACHED`).',
  errorStyle: 'app',
  auth: 'manage',
  access: { table: 'readwrite', publicKeys: true, items: [...manager, 'audit'] },
  permission: { action: 'organizations.create' },
  audit: ['organization.created'],
  contract: {
    body: { json: OrganizationBody },
    responses: { 201: OrganizationView },
    errors: [...writeErrors, 'organizationLimit'],
  },
} as const satisfies RouteSpec;
