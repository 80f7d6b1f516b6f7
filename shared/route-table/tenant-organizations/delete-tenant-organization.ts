import { NoBody } from '../../contracts/common.ts';
import { manageErrors, type RouteSpec } from '../../route-spec.ts';
import { TenantOrganizationPath } from '../../tenancy/schemas.ts';
import { manager } from '../item-families.ts';
import { base, readwrite, writeOrgs } from './common.ts';

export const deleteTenantOrganization = {
  method: 'DELETE',
  path: `${base}/{organizationId}`,
  entry: 'functions/tenant-organizations/delete.ts',
  description: 'Delete a tenant organization. Its memberships go with it; its users stay.',
  errorStyle: 'app',
  auth: 'manage',
  access: { ...readwrite, items: [...manager, 'userMemberships', 'audit'] },
  permission: writeOrgs,
  audit: ['tenantOrganization.deleted'],
  contract: {
    params: TenantOrganizationPath,
    responses: { 204: NoBody },
    errors: [...manageErrors, 'rateLimited'],
  },
} as const satisfies RouteSpec;
