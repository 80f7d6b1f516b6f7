import { NoBody } from '../../contracts/common.ts';
import { manageErrors, type RouteSpec } from '../../route-spec.ts';
import { InvitationPath } from '../../tenancy/schemas.ts';
import { manager } from '../item-families.ts';

export const revokeInvitation = {
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
} as const satisfies RouteSpec;
