import { MemberList } from '../../contracts/management.ts';
import { manageErrors, type RouteSpec } from '../../route-spec.ts';
import { OrganizationPath } from '../../tenancy/schemas.ts';
import { manager } from '../item-families.ts';

export const listMembers = {
  method: 'GET',
  path: '/organizations/{organizationId}/members',
  entry: 'functions/organizations/list-members.ts',
  description: "List an organization's members. Owners first; not paginated.",
  errorStyle: 'app',
  auth: 'manage',
  access: { table: 'read', publicKeys: true, items: manager },
  permission: { action: 'members.list', from: 'params' },
  contract: { params: OrganizationPath, responses: { 200: MemberList }, errors: manageErrors },
} as const satisfies RouteSpec;
