import { TenantOrganization } from '../../contracts/users.ts';
import { manageErrors, type RouteSpec } from '../../route-spec.ts';
import { TenantOrganizationPath } from '../../tenancy/schemas.ts';
import { manager } from '../item-families.ts';
import { base, read, readOrgs } from './common.ts';

export const getTenantOrganization = {
  method: 'GET',
  path: `${base}/{organizationId}`,
  entry: 'functions/tenant-organizations/get.ts',
  description: 'Read one tenant organization.',
  errorStyle: 'app',
  auth: 'manage',
  access: { ...read, items: manager },
  permission: readOrgs,
  contract: {
    params: TenantOrganizationPath,
    responses: { 200: TenantOrganization },
    errors: manageErrors,
  },
} as const satisfies RouteSpec;
