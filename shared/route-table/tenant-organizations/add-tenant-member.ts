import { Member } from '../../contracts/management.ts';
import { type RouteSpec, writeErrors } from '../../route-spec.ts';
import { AddMemberBody, TenantOrganizationPath } from '../../tenancy/schemas.ts';
import { manager } from '../item-families.ts';
import { base, readwrite, writeOrgs } from './common.ts';

export const addTenantMember = {
  method: 'POST',
  path: `${base}/{organizationId}/members`,
  entry: 'functions/tenant-organizations/add-member.ts',
  description: "Add one of the application's users to a tenant organization by address.",
  errorStyle: 'app',
  auth: 'manage',
  access: { ...readwrite, items: [...manager, 'audit'] },
  permission: writeOrgs,
  audit: ['tenantMember.added'],
  contract: {
    params: TenantOrganizationPath,
    body: { json: AddMemberBody },
    responses: { 201: Member },
    errors: [...writeErrors, 'alreadyMember'],
  },
} as const satisfies RouteSpec;
