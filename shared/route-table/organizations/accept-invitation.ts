import { Member } from '../../contracts/management.ts';
import { manageErrors, type RouteSpec } from '../../route-spec.ts';
import { OrganizationPath } from '../../tenancy/schemas.ts';
import { manager } from '../item-families.ts';

export const acceptInvitation = {
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
} as const satisfies RouteSpec;
