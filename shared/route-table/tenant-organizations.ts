/** An application's tenant organizations and their members (SPEC "Application organizations"). Spread into shared/routes.ts. */
import { NoBody } from '../contracts/common.ts';
import { Member, MemberList } from '../contracts/management.ts';
import { TenantOrganization, TenantOrganizationList } from '../contracts/users.ts';
import type { RouteSpec } from '../route-spec.ts';
import {
  AddMemberBody,
  ApplicationPath,
  ChangeMemberBody,
  CreateTenantOrganizationBody,
  OrganizationBody,
  PageQuery,
  TenantMemberPath,
  TenantOrganizationPath,
} from '../tenancy/schemas.ts';
import { manager } from './item-families.ts';
import { manageErrors, writeErrors } from './organizations.ts';

const read = { table: 'read', publicKeys: true } as const;
const readwrite = { table: 'readwrite', publicKeys: true } as const;
const readOrgs = { action: 'tenantOrganizations.read', from: 'params' } as const;
const writeOrgs = { action: 'tenantOrganizations.write', from: 'params' } as const;
const base = '/applications/{applicationId}/organizations';

export const tenantOrganizationRoutes = {
  listTenantOrganizations: {
    method: 'GET',
    path: base,
    entry: 'functions/tenant-organizations/list.ts',
    description: "List an application's tenant organizations. By id, paged by `limit` and `offset`.",
    errorStyle: 'app',
    auth: 'manage',
    access: { ...read, items: [...manager, 'applicationOrganizations'] },
    permission: readOrgs,
    contract: {
      params: ApplicationPath,
      query: PageQuery,
      responses: { 200: TenantOrganizationList },
      errors: manageErrors,
    },
  },
  createTenantOrganization: {
    method: 'POST',
    path: base,
    entry: 'functions/tenant-organizations/create.ts',
    description:
      "Create a tenant organization owned by one of the application's users, named by `userId` or `email`.",
    errorStyle: 'app',
    auth: 'manage',
    access: { ...readwrite, items: [...manager, 'applicationOrganizations', 'audit'] },
    permission: writeOrgs,
    audit: ['tenantOrganization.created'],
    contract: {
      params: ApplicationPath,
      body: { json: CreateTenantOrganizationBody },
      responses: { 201: TenantOrganization },
      errors: writeErrors,
    },
  },
  getTenantOrganization: {
    method: 'GET',
    path: `${base}/{organizationId}`,
    entry: 'functions/tenant-organizations/get.ts',
    description: 'Read one tenant organization.',
    errorStyle: 'app',
    auth: 'manage',
    access: { ...read, items: manager },
    permission: readOrgs,
    contract: {
      params: TenantOrganizationPath,
      responses: { 200: TenantOrganization },
      errors: manageErrors,
    },
  },
  updateTenantOrganization: {
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
  },
  deleteTenantOrganization: {
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
  },
  listTenantMembers: {
    method: 'GET',
    path: `${base}/{organizationId}/members`,
    entry: 'functions/tenant-organizations/list-members.ts',
    description: "List a tenant organization's members. Owners first; not paginated.",
    errorStyle: 'app',
    auth: 'manage',
    access: { ...read, items: manager },
    permission: readOrgs,
    contract: { params: TenantOrganizationPath, responses: { 200: MemberList }, errors: manageErrors },
  },
  addTenantMember: {
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
  },
  updateTenantMember: {
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
  },
  removeTenantMember: {
    method: 'DELETE',
    path: `${base}/{organizationId}/members/{userId}`,
    entry: 'functions/tenant-organizations/remove-member.ts',
    description:
      'Remove a member from a tenant organization. The last owner cannot be removed (`LAST_OWNER`).',
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
  },
} as const satisfies Record<string, RouteSpec>;
