import { MemberList } from '../../contracts/management.ts';
import { manageErrors, type RouteSpec } from '../../route-spec.ts';
import { TenantOrganizationPath } from '../../tenancy/schemas.ts';
import { manager } from '../item-families.ts';
import { base, read, readOrgs } from './common.ts';

export const listTenantMembers = {
  method: 'GET',
  path: `${base}/{organizationId}/members`,
  entry: 'functions/tenant-organizations/list-members.ts',
  description: "List a tenant organization's members. Owners first; not paginated.",
  errorStyle: 'app',
  auth: 'manage',
  access: { ...read, items: manager },
  permission: readOrgs,
  contract: { params: TenantOrganizationPath, responses: { 200: MemberList }, errors: manageErrors },
} as const satisfies RouteSpec;
