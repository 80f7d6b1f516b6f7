import { NoBody } from '../../contracts/common.ts';
import { manageErrors, type RouteSpec } from '../../route-spec.ts';
import { TenantMemberPath } from '../../tenancy/schemas.ts';
import { manager } from '../item-families.ts';
import { base, readwrite, writeOrgs } from './common.ts';

export const removeTenantMember = {
  method: 'DELETE',
  path: `${base}/{organizationId}/members/{userId}`,
  entry: 'functions/tenant-organizations/remove-member.ts',
  description: 'Remove a member from a tenant organization. The last owner cannot be removed (`LAST_OWNER`).',
  errorStyle: 'app',
  auth: 'manage',
  access: { ...readwrite, items: [...manager, 'audit'] },
  permission: writeOrgs,
  audit: ['tenantMember.removed'],
  contract: {
    params: TenantMemberPath,
    responses: { 204: NoBody },
    errors: [...manageErrors, 'lastOwner', 'rateLimited'],
  },
} as const satisfies RouteSpec;
