import { NoBody } from '../../contracts/common.ts';
import { manageErrors, type RouteSpec } from '../../route-spec.ts';
import { OrganizationPath } from '../../tenancy/schemas.ts';
import { manager } from '../item-families.ts';

export const declineInvitation = {
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
} as const satisfies RouteSpec;
