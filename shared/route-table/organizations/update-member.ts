import { Member } from '../../contracts/management.ts';
import { type RouteSpec, writeErrors } from '../../route-spec.ts';
import { ChangeMemberBody, MemberPath } from '../../tenancy/schemas.ts';
import { manager } from '../item-families.ts';

export const updateMember = {
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
} as const satisfies RouteSpec;
