import { Revoked } from '../../contracts/sessions.ts';
import { bodyErrors, credentialErrors, type RouteSpec } from '../../route-spec.ts';
import { RevokeSessionBody } from '../../users/schemas.ts';
import { endsSessions } from '../item-families.ts';

export const revokeSessionById = {
  method: 'POST',
  path: '/auth/revoke-session-by-id',
  entry: 'functions/auth/revoke-session-by-id.ts',
  description:
    "End one of the user's sessions by its id. Another user's session id is ignored, with the " +
    'same answer.',
  errorStyle: 'app',
  auth: 'session',
  access: { table: 'readwrite', publicKeys: true, items: endsSessions },
  audit: ['impersonation.ended'],
  contract: {
    body: { json: RevokeSessionBody },
    responses: { 200: Revoked },
    errors: [...bodyErrors, ...credentialErrors, 'forbidden'],
  },
} as const satisfies RouteSpec;
