import { InvitationList } from '../../contracts/management.ts';
import { manageErrors, type RouteSpec } from '../../route-spec.ts';
import { manager } from '../item-families.ts';

export const listInvitations = {
  method: 'GET',
  path: '/invitations',
  entry: 'functions/invitations/list.ts',
  description: "List the caller's own pending invitations. Newest first; not paginated.",
  errorStyle: 'app',
  auth: 'manage',
  access: { table: 'read', publicKeys: true, items: [...manager, 'invitation'] },
  permission: { action: 'invitations.list' },
  contract: { responses: { 200: InvitationList }, errors: manageErrors },
} as const satisfies RouteSpec;
