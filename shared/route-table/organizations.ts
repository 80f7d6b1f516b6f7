/**
 * Platform organizations and their members (docs/api.md "Organizations").
 *
 * Each route is a module of its own in `organizations/`, which its handler imports alone, so a route's
 * bundle holds its own entry and no other; this table lists them, in order, for the one table
 * (shared/routes.ts).
 */

import type { RouteSpec } from '../route-spec.ts';
import { acceptInvitation } from './organizations/accept-invitation.ts';
import { addMember } from './organizations/add-member.ts';
import { createOrganization } from './organizations/create-organization.ts';
import { declineInvitation } from './organizations/decline-invitation.ts';
import { deleteOrganization } from './organizations/delete-organization.ts';
import { getOrganization } from './organizations/get-organization.ts';
import { listInvitations } from './organizations/list-invitations.ts';
import { listMembers } from './organizations/list-members.ts';
import { listOrganizationInvitations } from './organizations/list-organization-invitations.ts';
import { listOrganizations } from './organizations/list-organizations.ts';
import { removeMember } from './organizations/remove-member.ts';
import { revokeInvitation } from './organizations/revoke-invitation.ts';
import { updateMember } from './organizations/update-member.ts';
import { updateOrganization } from './organizations/update-organization.ts';

export const organizationRoutes = {
  createOrganization,
  listOrganizations,
  getOrganization,
  updateOrganization,
  deleteOrganization,
  listMembers,
  addMember,
  updateMember,
  removeMember,
  listOrganizationInvitations,
  revokeInvitation,
  listInvitations,
  acceptInvitation,
  declineInvitation,
} as const satisfies Record<string, RouteSpec>;
