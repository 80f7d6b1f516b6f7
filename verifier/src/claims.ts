import type { JWTPayload } from 'jose';

/** The header `typ` of a session token (the service's shared/identity/session-token.ts). */
export const SESSION_TOKEN_TYPE = 'JWT';
/** RFC 9068 §2.1: the header `typ` of an OAuth access token. */
export const ACCESS_TOKEN_TYPE = 'at+jwt';
/** The `aud` of a session signed in without an application key (docs/verifier.md, `createVerifier(options)`). */
export const PLATFORM_AUDIENCE = 'platform';

/** A session token's claims (docs/security.md, "Session tokens"). */
export interface SessionClaims {
  iss: string;
  /** The user id. */
  sub: string;
  email: string;
  /** The session id: what `GET /auth/session` answers as `session.id`. */
  sid: string;
  /** Rotated by every refresh. */
  jti: string;
  /** The application id, or `platform`. */
  aud: string;
  iat: number;
  exp: number;
  /** Present on an impersonation token only: the support user acting as `sub` (RFC 8693 §4.1). */
  act?: { sub: string };
}

/** An OAuth access token's claims (RFC 9068; docs/oauth.md). */
export interface AccessTokenClaims {
  iss: string;
  /** The user id. */
  sub: string;
  /** The protected resource the grant was made for (RFC 8707). */
  aud: string;
  /** Space-separated: `auth:read`, `auth:write`. */
  scope: string;
  /** `scope` split. */
  scopes: string[];
  /** The client's metadata document URL. */
  client_id: string;
  /** The grant id. */
  gid: string;
  jti: string;
  iat: number;
  exp: number;
}

const isString = (value: unknown): value is string => typeof value === 'string' && value.length > 0;
const isTime = (value: unknown): value is number => typeof value === 'number' && Number.isFinite(value);

/** The claims the service always sets, or null when one is missing or mistyped. */
export function sessionClaimsOf(payload: JWTPayload): SessionClaims | null {
  const { iss, sub, email, sid, jti, aud, iat, exp, act } = payload as Record<string, unknown>;
  if (!isString(iss) || !isString(sub) || !isString(email) || !isString(sid) || !isString(jti)) return null;
  if (!isString(aud) || !isTime(iat) || !isTime(exp)) return null;
  if (act !== undefined && !isString((act as { sub?: unknown } | null)?.sub)) return null;
  const actor = act as { sub: string } | undefined;
  return { iss, sub, email, sid, jti, aud, iat, exp, ...(actor ? { act: { sub: actor.sub } } : {}) };
}

export function accessTokenClaimsOf(payload: JWTPayload): AccessTokenClaims | null {
  const { iss, sub, aud, scope, client_id, gid, jti, iat, exp } = payload as Record<string, unknown>;
  if (!isString(iss) || !isString(sub) || !isString(aud) || !isString(client_id) || !isString(gid))
    return null;
  if (!isString(jti) || typeof scope !== 'string' || !isTime(iat) || !isTime(exp)) return null;
  const scopes = scope.split(' ').filter(Boolean);
  return { iss, sub, aud, scope, scopes, client_id, gid, jti, iat, exp };
}
