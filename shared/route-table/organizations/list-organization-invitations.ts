import { PendingInvitationList } from '../../contracts/management.ts';
import { manageErrors, type RouteSpec } from '../../route-spec.ts';
import { OrganizationPath } from '../../tenancy/schemas.ts';
import { manager } from '../item-families.ts';

export const listOrganizationInvitations = {
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
} as const satisfies RouteSpec;
