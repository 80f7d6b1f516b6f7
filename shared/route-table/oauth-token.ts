/**
 * The OAuth token endpoint and the user's connections (docs/api.md "OAuth tokens and connections").
 * Spread into the one table (shared/routes.ts).
 */

import { NoBody } from '../contracts/common.ts';
import {
  ConnectionList,
  ConnectionRevoked,
  RevocationForm,
  RevokeConnectionBody,
  TokenForm,
  TokenHeaders,
  TokenResponse,
} from '../contracts/oauth-token.ts';
import { bodyErrors, credentialErrors, type RouteSpec } from '../route-spec.ts';
import { byKey, bySession } from './item-families.ts';

export const oauthTokenRoutes = {
  /**
   * No client authentication, no key, no cookie read (docs/oauth.md "Token endpoint"). `codeKey`: a
   * refresh token's successor is the HMAC of the token under the code-hash key (shared/oauth/refresh.ts).
   */
  oauthToken: {
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
  },
  /**
   * RFC 7009 revocation (docs/oauth.md "Revocation"): public clients, as the token endpoint. It reads
   * a refresh token by its hash or verifies an access token locally (`publicKeys`), then revokes the
   * grant in its user's partition by one conditional write. A role of its own: the refresh tokens'
   * family must not reach the many routes of the shared `table=readwrite,publicKeys` role.
   */
  oauthRevoke: {
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
  },
  listConnections: {
    method: 'GET',
    path: '/auth/list-connections',
    entry: 'functions/auth/list-connections.ts',
    description:
      'List the OAuth connections the user granted. The clients that hold its tokens, newest first.',
    errorStyle: 'app',
    auth: 'session',
    access: { table: 'read', publicKeys: true, items: [...bySession, ...byKey] },
    contract: { responses: { 200: ConnectionList }, errors: [...credentialErrors] },
  },
  /** Like `POST /auth/revoke-session-by-id`: another user's or an unknown id answers `revoked: false`. */
  revokeConnection: {
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
  },
} as const satisfies Record<string, RouteSpec>;
