import { ConnectionRevoked, RevokeConnectionBody } from '../../contracts/oauth-token.ts';
import { bodyErrors, credentialErrors, type RouteSpec } from '../../route-spec.ts';
import { byKey, bySession } from '../item-families.ts';

/** Like `POST /auth/revoke-session-by-id`: another user's or an unknown id answers `revoked: false`. */
export const revokeConnection = {
  method: 'POST',
  path: '/auth/revoke-connection',
  entry: 'functions/auth/revoke-connection.ts',
  description:
    "Revoke one of the user's OAuth connections. Its tokens stop working at once; `revoked` is false for an unknown id, another user's or one already revoked.",
  errorStyle: 'app',
  auth: 'session',
  access: { table: 'readwrite', publicKeys: true, items: [...bySession, ...byKey] },
  contract: {
    body: { json: RevokeConnectionBody },
    responses: { 200: ConnectionRevoked },
    errors: [...bodyErrors, ...credentialErrors, 'forbidden'],
  },
} as const satisfies RouteSpec;
