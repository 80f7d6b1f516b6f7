import type { JWTPayload } from 'jose';
import { signToken, verifyJwt } from '../crypto/jwt.ts';
import type { Deps } from '../deps.ts';
import { newId } from '../random.ts';

/** The header's `typ` of a session token (an OAuth access token's is `at+jwt`). */
const SESSION_TOKEN_TYPE = 'JWT';

/** A session token is valid 7 days (docs/security.md, "Session tokens"). */
export const SESSION_TTL_SECONDS = 7 * 24 * 60 * 60;

export interface SessionClaims {
  sub: string;
  email: string;
  sid: string;
  jti: string;
  aud: string;
  exp: number;
  /**
   * RFC 8693 §4.1: the support user acting as `sub`, on an impersonation token only (docs/api.md,
   * Impersonation).
   */
  act?: { sub: string };
}

export interface IssuedToken {
  token: string;
  jti: string;
  issuedAt: number;
  expiresAt: number;
}

/**
 * The claims (docs/security.md, "Session tokens"): iss, sub (user), sid (session), aud (application id or
 * `platform`), jti, iat, exp; plus `email` (it cannot change): consumers verifying locally get it, and the
 * server finds the account and its image parts from the token alone, in one read.
 */
export async function issueSessionToken(
  deps: Deps,
  input: {
    userId: string;
    email: string;
    sessionId: string;
    scope: string;
    /** Seconds; a session's 7 days unless given (an impersonation's 15 minutes). */
    lifetime?: number;
    /** The user acting as `userId` (an impersonation): the `act` claim. */
    actorId?: string;
  },
): Promise<IssuedToken> {
  const issuedAt = Math.floor(deps.clock.now() / 1000);
  const expiresAt = issuedAt + (input.lifetime ?? SESSION_TTL_SECONDS);
  const jti = newId(deps.random, 'jti');
  const token = await signToken(
    deps,
    {
      iss: deps.config.ISSUER,
      sub: input.userId,
      email: input.email,
      sid: input.sessionId,
      aud: input.scope,
      jti,
      iat: issuedAt,
      exp: expiresAt,
      ...(input.actorId ? { act: { sub: input.actorId } } : {}),
    },
    SESSION_TOKEN_TYPE,
  );
  return { token, jti, issuedAt, expiresAt };
}

/** A non-empty string claim. */
export const isString = (value: unknown): value is string => typeof value === 'string' && value.length > 0;

/**
 * Verifies signature, issuer, expiry and the header's `typ` (`JWT`) locally; null for anything that
 * is not our session token: an OAuth access token (`at+jwt`, same key) never passes for one.
 */
export async function verifySessionToken(deps: Deps, token: string): Promise<SessionClaims | null> {
  const payload: JWTPayload | null = await verifyJwt(deps.signer, token, {
    issuer: deps.config.ISSUER,
    typ: SESSION_TOKEN_TYPE,
    clock: deps.clock,
  });
  if (!payload) return null;
  const { sub, email, sid, jti, aud, exp, act } = payload as JWTPayload & {
    sid?: unknown;
    email?: unknown;
    act?: { sub?: unknown };
  };
  if (!isString(sub) || !isString(email) || !isString(sid) || !isString(jti) || !isString(aud)) return null;
  if (typeof exp !== 'number') return null;
  if (act !== undefined && !isString(act?.sub)) return null;
  return { sub, email, sid, jti, aud, exp, ...(act ? { act: { sub: act.sub as string } } : {}) };
}

/** The claims of an impersonation token: a session token with `act` (docs/api.md, Impersonation). */
export type ImpersonationClaims = SessionClaims & { act: { sub: string } };

/**
 * An impersonation token's claims, verified locally (signature, issuer, expiry) but not against its
 * session, which an ended impersonation no longer has: what `POST /impersonation/{id}/end` checks
 * against the record. Null for anything else (another token, an expired one).
 */
export async function verifyImpersonationToken(
  deps: Deps,
  token: string,
): Promise<ImpersonationClaims | null> {
  const claims = await verifySessionToken(deps, token);
  return claims?.act ? { ...claims, act: claims.act } : null;
}
