import { NoBody } from '../../contracts/common.ts';
import { RevocationForm, TokenHeaders } from '../../contracts/oauth-token.ts';
import { bodyErrors, type RouteSpec } from '../../route-spec.ts';

/**
 * RFC 7009 revocation (docs/oauth.md "Revocation"): public clients, as the token endpoint. It reads
 * a refresh token by its hash or verifies an access token locally (`publicKeys`), then revokes the
 * grant in its user's partition by one conditional write. A role of its own: the refresh tokens'
 * family must not reach the many routes of the shared `table=readwrite,publicKeys` role.
 */
export const oauthRevoke = {
  method: 'POST',
  path: '/oauth/revoke',
  entry: 'functions/oauth/revoke.ts',
  description:
    'Revoke a refresh or access token and its whole grant (RFC 7009). Answers 200 whether the token was known or not.',
  errorStyle: 'oauth',
  auth: 'none',
  access: { table: 'readwrite', publicKeys: true, role: 'revocation', items: ['refreshToken', 'user'] },
  contract: {
    headers: TokenHeaders,
    body: { form: RevocationForm },
    responses: { 200: NoBody },
    errors: [...bodyErrors, 'oauthInvalidRequest', 'invalidClient', 'invalidClientAuthentication'],
  },
} as const satisfies RouteSpec;
