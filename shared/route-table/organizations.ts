/**
 * Platform organizations and their members (docs/api.md "Organizations"). Spread into the one table
 * (shared/routes.ts).
 */
import { NoBody } from '../contracts/common.ts';
import {
  InvitationCreated,
  InvitationList,
  Member,
  MemberList,
  OrganizationList,
  OrganizationView,
  PendingInvitationList,
} from '../contracts/management.ts';
import { bodyErrors, credentialErrors, type RouteSpec } from '../route-spec.ts';
import {
  AddMemberBody,
  ChangeMemberBody,
  InvitationPath,
  MemberPath,
  OrganizationBody,
  OrganizationPath,
} from '../tenancy/schemas.ts';
import { manager } from './item-families.ts';

/**
 * Errors of every management route: no credential, a role or key that may not, an unknown target,
 * and a path or query that is not valid (an id over 100 characters, a bad page).
 */
export const manageErrors = [...credentialErrors, 'forbidden', 'notFound', 'invalidRequest'] as const;
/** Writes that can lose a race to DynamoDB's transaction conflicts answer 429 busy. */
export const writeErrors = [...bodyErrors, ...manageErrors, 'rateLimited'] as const;

export const organizationRoutes = {
  createOrganization: {
    method: 'POST',
    path: '/organizations',
    entry: 'functions/organizations/create.ts',
    description:
      'Create a platform organization. The caller becomes its `owner`; an account creates at most 10 (`ORGANIZATION_LIMIT_REACHED`).',
    errorStyle: 'app',
    auth: 'manage',
    access: { table: 'readwrite', publicKeys: true, items: [...manager, 'audit'] },
    permission: { action: 'organizations.create' },
    audit: ['organization.created'],
    contract: {
      body: { json: OrganizationBody },
      responses: { 201: OrganizationView },
      errors: [...writeErrors, 'organizationLimit'],
    },
  },
  listOrganizations: {
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
  },
  getOrganization: {
    method: 'GET',
    path: '/organizations/{organizationId}',
    entry: 'functions/organizations/get.ts',
    description: "Read one organization: its name, plan, usage and the caller's role.",
    errorStyle: 'app',
    auth: 'manage',
    access: { table: 'read', publicKeys: true, items: manager },
    permission: { action: 'organizations.read', from: 'params' },
    contract: { params: OrganizationPath, responses: { 200: OrganizationView }, errors: manageErrors },
  },
  updateOrganization: {
    method: 'PATCH',
    path: '/organizations/{organizationId}',
    entry: 'functions/organizations/update.ts',
    description: 'Rename an organization.',
    errorStyle: 'app',
    auth: 'manage',
    access: { table: 'readwrite', publicKeys: true, items: [...manager, 'audit'] },
    permission: { action: 'organizations.update', from: 'params' },
    audit: ['organization.updated'],
    contract: {
      params: OrganizationPath,
      body: { json: OrganizationBody },
      responses: { 200: OrganizationView },
      errors: writeErrors,
    },
  },
  deleteOrganization: {
    method: 'DELETE',
    path: '/organizations/{organizationId}',
    entry: 'functions/organizations/delete.ts',
    description: 'Delete an organization. Only once it holds no application (`ORGANIZATION_NOT_EMPTY`).',
    errorStyle: 'app',
    auth: 'manage',
    access: {
      table: 'readwrite',
      publicKeys: true,
      items: [...manager, 'organizationApplications', 'invitation', 'audit'],
    },
    permission: { action: 'organizations.delete', from: 'params' },
    audit: ['organization.deleted'],
    contract: {
      params: OrganizationPath,
      responses: { 204: NoBody },
      errors: [...manageErrors, 'organizationNotEmpty', 'rateLimited'],
    },
  },
  listMembers: {
    method: 'GET',
    path: '/organizations/{organizationId}/members',
    entry: 'functions/organizations/list-members.ts',
    description: "List an organization's members. Owners first; not paginated.",
    errorStyle: 'app',
    auth: 'manage',
    access: { table: 'read', publicKeys: true, items: manager },
    permission: { action: 'members.list', from: 'params' },
    contract: { params: OrganizationPath, responses: { 200: MemberList }, errors: manageErrors },
  },
  addMember: {
    method: 'POST',
    path: '/organizations/{organizationId}/members',
    entry: 'functions/organizations/add-member.ts',
    description:
      'Invite an address to an organization. Nobody joins without accepting; the answer is the same whether or not the address has an account, and a manager invites with at most its own role.',
    errorStyle: 'app',
    auth: 'manage',
    access: { table: 'readwrite', publicKeys: true, items: [...manager, 'invitation', 'audit'] },
    permission: { action: 'members.add', from: 'params' },
    audit: ['invitation.sent'],
    contract: {
      params: OrganizationPath,
      body: { json: AddMemberBody },
      responses: { 202: InvitationCreated },
      errors: writeErrors,
    },
  },
  updateMember: {
    method: 'PATCH',
    path: '/organizations/{organizationId}/members/{userId}',
    entry: 'functions/organizations/update-member.ts',
    description:
      "Change a member's role. The last owner cannot be demoted (`LAST_OWNER`); an owner or admin made `member` has its impersonations ended.",
    errorStyle: 'app',
    auth: 'manage',
    access: {
      table: 'readwrite',
      publicKeys: true,
      // Losing the role or the membership ends the member's running impersonations: their records,
      // their sessions (the user family, in manager) and their trail entries.
      items: [...manager, 'audit', 'impersonation'],
    },
    permission: { action: 'members.change', from: 'params' },
    audit: ['member.roleChanged', 'impersonation.ended'],
    contract: {
      params: MemberPath,
      body: { json: ChangeMemberBody },
      responses: { 200: Member },
      errors: [...writeErrors, 'lastOwner'],
    },
  },
  removeMember: {
    method: 'DELETE',
    path: '/organizations/{organizationId}/members/{userId}',
    entry: 'functions/organizations/remove-member.ts',
    description:
      "Remove a member, or leave. The last owner cannot leave (`LAST_OWNER`); the member's impersonations end with it.",
    errorStyle: 'app',
    auth: 'manage',
    access: { table: 'readwrite', publicKeys: true, items: [...manager, 'audit', 'impersonation'] },
    // Any member may leave; removing another is decided by mayChangeMember (shared/tenancy/permissions.ts).
    permission: { action: 'members.leave', from: 'params' },
    audit: ['member.removed', 'member.left', 'impersonation.ended'],
    contract: {
      params: MemberPath,
      responses: { 204: NoBody },
      errors: [...manageErrors, 'lastOwner', 'rateLimited'],
    },
  },
  listOrganizationInvitations: {
    method: 'GET',
    path: '/organizations/{organizationId}/invitations',
    entry: 'functions/organizations/list-invitations.ts',
    description:
      "List an organization's pending invitations. Newest first, with who sent each; expired and void ones left out.",
    errorStyle: 'app',
    auth: 'manage',
    access: {
      table: 'read',
      publicKeys: true,
      // The organization's invitations on gsi1, then their inviters' memberships (ORG#, in manager).
      items: [...manager, 'organizationInvitations'],
    },
    permission: { action: 'invitations.read', from: 'params' },
    contract: { params: OrganizationPath, responses: { 200: PendingInvitationList }, errors: manageErrors },
  },
  revokeInvitation: {
    method: 'DELETE',
    path: '/organizations/{organizationId}/invitations/{email}',
    entry: 'functions/organizations/revoke-invitation.ts',
    description:
      'Revoke the pending invitation of an address. Accepting it is 404 from then on; revoking none is no error.',
    errorStyle: 'app',
    auth: 'manage',
    access: { table: 'readwrite', publicKeys: true, items: [...manager, 'invitation', 'audit'] },
    permission: { action: 'invitations.revoke', from: 'params' },
    audit: ['invitation.revoked'],
    contract: {
      params: InvitationPath,
      responses: { 204: NoBody },
      errors: [...manageErrors, 'rateLimited'],
    },
  },
  listInvitations: {
    method: 'GET',
    path: '/invitations',
    entry: 'functions/invitations/list.ts',
    description: "List the caller's own pending invitations. Newest first; not paginated.",
    errorStyle: 'app',
    auth: 'manage',
    access: { table: 'read', publicKeys: true, items: [...manager, 'invitation'] },
    permission: { action: 'invitations.list' },
    contract: { responses: { 200: InvitationList }, errors: manageErrors },
  },
  acceptInvitation: {
    method: 'POST',
    path: '/invitations/{organizationId}/accept',
    entry: 'functions/invitations/accept.ts',
    description:
      'Accept an invitation to an organization. The caller joins with the invited role; 404 when none is pending (expired, declined, revoked or void).',
    errorStyle: 'app',
    auth: 'manage',
    access: { table: 'readwrite', publicKeys: true, items: [...manager, 'invitation', 'audit'] },
    permission: { action: 'invitations.respond' },
    audit: ['invitation.accepted'],
    contract: {
      params: OrganizationPath,
      responses: { 200: Member },
      errors: [...manageErrors, 'alreadyMember', 'rateLimited'],
    },
  },
  declineInvitation: {
    method: 'DELETE',
    path: '/invitations/{organizationId}',
    entry: 'functions/invitations/decline.ts',
    description: 'Decline an invitation to an organization. Declining none is no error.',
    errorStyle: 'app',
    auth: 'manage',
    access: { table: 'readwrite', publicKeys: true, items: [...manager, 'invitation', 'audit'] },
    permission: { action: 'invitations.respond' },
    audit: ['invitation.declined'],
    contract: { params: OrganizationPath, responses: { 204: NoBody }, errors: manageErrors },
  },
} as const satisfies Record<string, RouteSpec>;
