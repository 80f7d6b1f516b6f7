import { Revoked } from '../../contracts/sessions.ts';
import { credentialErrors, type RouteSpec } from '../../route-spec.ts';
import { endsSessions } from '../item-families.ts';

export const revokeOtherSessions = {
  method: 'POST',
  path: '/auth/revoke-other-sessions',
  entry: 'functions/auth/revoke-other-sessions.ts',
  description: 'End every session of the user but the current one. Answers how many ended.',
  errorStyle: 'app',
  auth: 'session',
  access: { table: 'readwrite', publicKeys: true, items: endsSessions },
  audit: ['impersonation.ended'],
  contract: { responses: { 200: Revoked }, errors: [...credentialErrors, 'forbidden'] },
} as const satisfies RouteSpec;
