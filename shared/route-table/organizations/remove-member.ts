import { NoBody } from '../../contracts/common.ts';
import { manageErrors, type RouteSpec } from '../../route-spec.ts';
import { MemberPath } from '../../tenancy/schemas.ts';
import { manager } from '../item-families.ts';

export const removeMember = {
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
} as const satisfies RouteSpec;
