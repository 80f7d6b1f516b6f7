/**
 * The OAuth 2.1 authorization server's shared vocabulary: scopes and how roles narrow
 * them, lifetimes, the records the authorize, consent, token, connection and MCP routes hand to
 * each other through the table (shared/store/oauth.ts and oauth-requests.ts store and decode them),
 * and the claims of an access token. docs/oauth.md explains them.
 */

import type { AuthorizationCodeRecord, GrantRecord, RefreshTokenRecord } from '../store/oauth.ts';
import type { AuthorizationRequest } from '../store/oauth-requests.ts';
import type { Role } from '../tenancy/permissions.ts';

export type { AuthorizationCodeRecord, AuthorizationRequest, GrantRecord, RefreshTokenRecord };

/** The two scopes of the service (docs/oauth.md). */
export const SCOPES = ['auth:read', 'auth:write'] as const;
export type Scope = (typeof SCOPES)[number];

/**
 * Owners and admins may hold both scopes, members only `auth:read`. A user with no role
 * in the organization that owns the application may hold none (the authorization is refused).
 */
const scopesOfRole = (role: Role | undefined): readonly Scope[] =>
  role === 'owner' || role === 'admin' ? SCOPES : role === 'member' ? ['auth:read'] : [];

/**
 * The scopes granted: those asked for (all the role allows when `scope` is absent) that the role
 * allows, in the order of `SCOPES`. Unknown scope values are dropped (RFC 6749 §3.3: the server may
 * grant fewer), never an error.
 */
export function grantedScopes(requested: string | undefined, role: Role | undefined): Scope[] {
  return narrowScopes(requested === undefined ? scopesOfRole(role) : requested.split(' '), role);
}

/** Of `held` (a grant's or a code's scopes), those `role` still allows, in the order of `SCOPES`. */
export function narrowScopes(held: readonly string[], role: Role | undefined): Scope[] {
  const allowed = scopesOfRole(role);
  return SCOPES.filter((scope) => allowed.includes(scope) && held.includes(scope));
}

/** Access tokens are valid 3600 s (docs/oauth.md, "Token endpoint"). */
export const ACCESS_TOKEN_TTL_SECONDS = 3600;
/** Authorization codes: single use, at most 10 minutes (OAuth 2.1 §4.1.2 recommends short). */
export const AUTHORIZATION_CODE_TTL_SECONDS = 600;
/** A pending authorization request (authorize → sign-in bridge → consent) lives as long as a code. */
export const AUTHORIZATION_REQUEST_TTL_SECONDS = 600;
/** A refresh token's life from its issue; each rotation issues a new one. */
export const REFRESH_TOKEN_TTL_SECONDS = 30 * 24 * 60 * 60;
/**
 * A replay of a rotated refresh token within this window returns the same new tokens
 * (docs/oauth.md, "Refresh rotation").
 */
export const REFRESH_REPLAY_GRACE_SECONDS = 30;

/**
 * The client's metadata as the authorization server uses it, from its client ID metadata document
 * (validated by shared/oauth/client-metadata.ts). `clientId` is the document's URL.
 */
export interface ClientMetadata {
  clientId: string;
  clientName: string;
  redirectUris: string[];
  clientUri?: string;
  logoUri?: string;
}

/**
 * The claims of an OAuth access token (RS256, `typ: at+jwt`, RFC 9068): a type, not an interface,
 * so it is a JWT payload as it stands (a payload is any object of claims).
 */
export type AccessTokenClaims = {
  iss: string;
  sub: string;
  /** The resource (RFC 8707): `<ISSUER>/mcp/<applicationId>` for the MCP endpoint. */
  aud: string;
  scope: string;
  client_id: string;
  /** The grant: the MCP endpoint reads it to know the connection is still live. */
  gid: string;
  jti: string;
  iat: number;
  exp: number;
};
