import { TokenForm, TokenHeaders, TokenResponse } from '../../contracts/oauth-token.ts';
import { bodyErrors, type RouteSpec } from '../../route-spec.ts';

/**
 * No client authentication, no key, no cookie read (docs/oauth.md "Token endpoint"). `codeKey`: a
 * refresh token's successor is the HMAC of the token under the code-hash key (shared/oauth/refresh.ts).
 */
export const oauthToken = {
  method: 'POST',
  path: '/oauth/token',
  entry: 'functions/oauth/token.ts',
  description:
    'Exchange an authorization code, or rotate a refresh token, for an access token. Public clients only (no client authentication); PKCE S256; RFC 6749 errors.',
  errorStyle: 'oauth',
  auth: 'none',
  access: {
    table: 'readwrite',
    sign: true,
    codeKey: true,
    // The code or refresh token by hash, the grant (in its user's partition), the user's role on
    // the application (the application and the owning organization's membership), and the holder of
    // an external resource (it may have been released since the consent).
    items: ['authorizationCode', 'refreshToken', 'user', 'application', 'organization', 'resource'],
  },
  contract: {
    headers: TokenHeaders,
    body: { form: TokenForm },
    responses: { 200: TokenResponse },
    errors: [
      ...bodyErrors,
      'oauthInvalidRequest',
      'invalidClient',
      'invalidClientAuthentication',
      'invalidGrant',
      'invalidTarget',
      'invalidScope',
      'unsupportedGrantType',
      'rateLimited',
    ],
  },
} as const satisfies RouteSpec;
