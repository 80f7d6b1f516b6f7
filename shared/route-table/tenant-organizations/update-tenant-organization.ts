import { TenantOrganization } from '../../contracts/users.ts';
import { type RouteSpec, writeErrors } from '../../route-spec.ts';
import { OrganizationBody, TenantOrganizationPath } from '../../tenancy/schemas.ts';
import { manager } from '../item-families.ts';
import { base, readwrite, writeOrgs } from './common.ts';

export const updateTenantOrganization = {
  method: 'PATCH',
  path: `${base}/{organizationId}`,
  entry: 'functions/tenant-organizations/update.ts',
  description: 'Rename a tenant organization.',
  errorStyle: 'app',
  auth: 'manage',
  access: { ...readwrite, items: [...manager, 'audit'] },
  permission: writeOrgs,
  audit: ['tenantOrganization.updated'],
  contract: {
    params: TenantOrganizationPath,
    body: { json: OrganizationBody },
    responses: { 200: TenantOrganization },
    errors: writeErrors,
  },
} as const satisfies RouteSpec;
