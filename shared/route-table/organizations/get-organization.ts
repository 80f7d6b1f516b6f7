import { OrganizationView } from '../../contracts/management.ts';
import { manageErrors, type RouteSpec } from '../../route-spec.ts';
import { OrganizationPath } from '../../tenancy/schemas.ts';
import { manager } from '../item-families.ts';

export const getOrganization = {
  method: 'GET',
  path: '/organizations/{organizationId}',
  entry: 'functions/organizations/get.ts',
  description: "Read one organization: its name, plan, usage and the caller's role.",
  errorStyle: 'app',
  auth: 'manage',
  access: { table: 'read', publicKeys: true, items: manager },
  permission: { action: 'organizations.read', from: 'params' },
  contract: { params: OrganizationPath, responses: { 200: OrganizationView }, errors: manageErrors },
} as const satisfies RouteSpec;
