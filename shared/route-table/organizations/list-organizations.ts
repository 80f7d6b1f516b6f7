import { OrganizationList } from '../../contracts/management.ts';
import { manageErrors, type RouteSpec } from '../../route-spec.ts';
import { manager } from '../item-families.ts';

export const listOrganizations = {
  method: 'GET',
  path: '/organizations',
  entry: 'functions/organizations/list.ts',
  description:
    "List the caller's platform organizations. Oldest first, with the caller's role in each; not paginated.",
  errorStyle: 'app',
  auth: 'manage',
  access: { table: 'read', publicKeys: true, items: [...manager, 'userMemberships'] },
  permission: { action: 'organizations.list' },
  contract: { responses: { 200: OrganizationList }, errors: manageErrors },
} as const satisfies RouteSpec;
