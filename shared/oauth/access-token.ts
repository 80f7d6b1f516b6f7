/**
 * OAuth access tokens: RS256 JWTs signed through the `Signer` (one KMS `Sign`), valid
 * 3600 s, `typ: at+jwt` (RFC 9068 §2.1) so no session verifier mistakes one for a session token,
 * with `aud` the one resource (RFC 8707) the grant was made for. The MCP endpoint verifies them
 * locally against the published keys and reads the grant (`gid`) once to know it is still live.
 */
import type { JWTPayload } from 'jose';
import { signToken, verifyJwt } from '../crypto/jwt.ts';
import type { Deps } from '../deps.ts';
import { isString } from '../identity/session-token.ts';
import { newId } from '../random.ts';
import { canonicalResource } from '../tenancy/service-resources.ts';
import { ACCESS_TOKEN_TTL_SECONDS, type AccessTokenClaims, SCOPES, type Scope } from './model.ts';

const ACCESS_TOKEN_TYPE = 'at+jwt';

export interface IssuedAccessToken {
  accessToken: string;
  expiresIn: number;
  claims: AccessTokenClaims;
}

export async function issueAccessToken(
  deps: Deps,
  input: { userId: string; resource: string; scopes: readonly Scope[]; clientId: string; grantId: string },
): Promise<IssuedAccessToken> {
  const iat = Math.floor(deps.clock.now() / 1000);
  const claims: AccessTokenClaims = {
    iss: deps.config.ISSUER,
    sub: input.userId,
    // The canonical form authorize stored; a grant written before it did may hold another spelling.
    aud: canonicalResource(input.resource) ?? input.resource,
    scope: input.scopes.join(' '),
    client_id: input.clientId,
    gid: input.grantId,
    jti: newId(deps.random, 'at'),
    iat,
    exp: iat + ACCESS_TOKEN_TTL_SECONDS,
  };
  const accessToken = await signToken(deps, claims, ACCESS_TOKEN_TYPE);
  return { accessToken, expiresIn: ACCESS_TOKEN_TTL_SECONDS, claims };
}

/**
 * The claims of an access token for `resource`, verified locally (RS256 only, issuer, audience,
 * expiry, the `at+jwt` type): null for anything else, a session token included. Not a liveness
 * check: the caller reads the grant (`gid`) for that. `resource: 'any'` skips the audience check,
 * for the revocation endpoint, which ends the token whatever it was issued for.
 */
export async function verifyAccessToken(
  deps: Deps,
  token: string,
  resource: string | 'any',
): Promise<AccessTokenClaims | null> {
  const payload = await verifyJwt(deps.signer, token, {
    issuer: deps.config.ISSUER,
    ...(resource === 'any' ? {} : { audience: resource }),
    typ: ACCESS_TOKEN_TYPE,
    clock: deps.clock,
  });
  if (!payload) return null;
  const { sub, aud, scope, client_id, gid, jti, iat, exp, iss } = payload as JWTPayload &
    Record<string, unknown>;
  if (!isString(sub) || !isString(client_id) || !isString(gid) || !isString(jti) || !isString(iss))
    return null;
  if (typeof scope !== 'string' || !isString(aud) || (resource !== 'any' && aud !== resource)) return null;
  if (typeof iat !== 'number' || typeof exp !== 'number') return null;
  const scopes = scope.split(' ').filter(Boolean);
  if (!scopes.every((value) => (SCOPES as readonly string[]).includes(value))) return null;
  return { iss, sub, aud, scope, client_id, gid, jti, iat, exp };
}
