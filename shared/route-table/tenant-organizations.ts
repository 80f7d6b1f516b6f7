/**
 * An application's tenant organizations and their members (docs/api.md "Tenant organizations").
 *
 * Each route is a module of its own in `tenant-organizations/`, which its handler imports alone, so a route's
 * bundle holds its own entry and no other; this table lists them, in order, for the one table
 * (shared/routes.ts).
 */

import type { RouteSpec } from '../route-spec.ts';
import { addTenantMember } from './tenant-organizations/add-tenant-member.ts';
import { createTenantOrganization } from './tenant-organizations/create-tenant-organization.ts';
import { deleteTenantOrganization } from './tenant-organizations/delete-tenant-organization.ts';
import { getTenantOrganization } from './tenant-organizations/get-tenant-organization.ts';
import { listTenantMembers } from './tenant-organizations/list-tenant-members.ts';
import { listTenantOrganizations } from './tenant-organizations/list-tenant-organizations.ts';
import { removeTenantMember } from './tenant-organizations/remove-tenant-member.ts';
import { updateTenantMember } from './tenant-organizations/update-tenant-member.ts';
import { updateTenantOrganization } from './tenant-organizations/update-tenant-organization.ts';

export const tenantOrganizationRoutes = {
  listTenantOrganizations,
  createTenantOrganization,
  getTenantOrganization,
  updateTenantOrganization,
  deleteTenantOrganization,
  listTenantMembers,
  addTenantMember,
  updateTenantMember,
  removeTenantMember,
} as const satisfies Record<string, RouteSpec>;
