import { Member } from '../../contracts/management.ts';
import { type RouteSpec, writeErrors } from '../../route-spec.ts';
import { ChangeMemberBody, TenantMemberPath } from '../../tenancy/schemas.ts';
import { manager } from '../item-families.ts';
import { base, readwrite, writeOrgs } from './common.ts';

export const updateTenantMember = {
  method: 'PATCH',
  path: `${base}/{organizationId}/members/{userId}`,
  entry: 'functions/tenant-organizations/update-member.ts',
  description: "Change a tenant member's role. The last owner cannot be demoted (`LAST_OWNER`).",
  errorStyle: 'app',
  auth: 'manage',
  access: { ...readwrite, items: [...manager, 'audit'] },
  permission: writeOrgs,
  audit: ['tenantMember.roleChanged'],
  contract: {
    params: TenantMemberPath,
    body: { json: ChangeMemberBody },
    responses: { 200: Member },
    errors: [...writeErrors, 'lastOwner'],
  },
} as const satisfies RouteSpec;
