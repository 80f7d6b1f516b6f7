import { InvitationCreated } from '../../contracts/management.ts';
import { type RouteSpec, writeErrors } from '../../route-spec.ts';
import { AddMemberBody, OrganizationPath } from '../../tenancy/schemas.ts';
import { manager } from '../item-families.ts';

export const addMember = {
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
} as const satisfies RouteSpec;
