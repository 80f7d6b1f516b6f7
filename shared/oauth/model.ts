/**
 * The OAuth 2.1 authorization server's shared vocabulary: scopes and how roles narrow
 * them, lifetimes, the records the authorize, consent, token, connection and MCP routes hand to
 * each other through the table, and the claims of an access token. docs/oauth.md explains them.
 */
import type { Role } from '../tenancy/permissions.ts';

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
 * An authorization request that passed every check of `GET /oauth/authorize` up to the user's
 * decision, kept server-side (`OAUTHREQ#<id>`, 10 minutes) while the user signs in and consents.
 * `sessionId` binds it to the browser session that may decide it (the consent POST's CSRF guard).
 */
export interface AuthorizationRequest {
  requestId: string;
  clientId: string;
  clientName: string;
  redirectUri: string;
  codeChallenge: string;
  resource: string;
  applicationId: string;
  /** The raw `scope` parameter, if sent. */
  scope?: string;
  state?: string;
  /** The query string of the original `/oauth/authorize` request, to return to after sign-in. */
  query: string;
  sessionId?: string;
  /**
   * With `sessionId`: the SHA-256 of the consent form's CSRF token (a synchronizer token, 256 random
   * bits, shown only in the consent page): the consent POST must carry it as well as come from the
   * bound session.
   */
  csrfTokenHash?: string;
  /**
   * With `sessionId`: the scopes the consent page showed. Approval grants at most these (narrowed
   * again by the role at that moment), so a promotion between page and approval cannot widen it.
   */
  shownScopes?: Scope[];
  /** Epoch seconds (also the item's TTL). */
  expiresAt: number;
}

/**
 * An authorization code (`OAUTHCODE#<sha256 of the code>`): single use, 10 minutes, bound to the
 * client, the redirect URI, the PKCE challenge and the resource. `grantId` is the grant the code
 * creates at its first exchange; a second exchange revokes that grant (OAuth 2.1 §4.1.3).
 */
export interface AuthorizationCodeRecord {
  codeHash: string;
  clientId: string;
  clientName: string;
  redirectUri: string;
  codeChallenge: string;
  resource: string;
  applicationId: string;
  userId: string;
  scopes: Scope[];
  grantId: string;
  issuedAt: number;
  expiresAt: number;
  /** Set by the first exchange (conditional write): the code is spent. */
  usedAt?: number;
}

/**
 * A grant, shown to the user as a connection (docs/oauth.md, Connections): one user, one client,
 * one application's resource, the scopes last granted. Revoking it ends its refresh tokens at once
 * and its access tokens at the MCP endpoint on their next call (which reads this record).
 */
export interface GrantRecord {
  grantId: string;
  userId: string;
  clientId: string;
  clientName: string;
  applicationId: string;
  /**
   * The organization that owned the application at the exchange, so the MCP endpoint reads the
   * membership without reading the application first. Absent on grants made before it was written.
   */
  organizationId?: string;
  resource: string;
  scopes: Scope[];
  createdAt: number;
  lastUsedAt: number;
  /** Present once revoked (by the user, by a code replay, by a refresh replay): the grant is dead. */
  revokedAt?: number;
}

/** The claims of an OAuth access token (RS256, `typ: at+jwt`, RFC 9068). */
export interface AccessTokenClaims {
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
}

/**
 * A refresh token (`REFRESH#<sha256 of the token>`): single use, rotated by a conditional
 * write that sets `rotatedAt`. Its successor is derived from it (shared/oauth/refresh.ts), so a
 * replay within REFRESH_REPLAY_GRACE_SECONDS of `rotatedAt` finds the same successor; a later
 * replay revokes the grant. `expiresAt` is also the TTL attribute.
 */
export interface RefreshTokenRecord {
  tokenHash: string;
  grantId: string;
  userId: string;
  clientId: string;
  resource: string;
  issuedAt: number;
  expiresAt: number;
  /** Set by the first rotation: the token is spent (replays are judged from this time). */
  rotatedAt?: number;
}
