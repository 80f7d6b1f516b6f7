/**
 * POST /oauth/token (docs/oauth.md, "Token endpoint"): public clients only, two grants. The
 * authorization-code grant is here; the refresh-token grant is shared/oauth/refresh.ts. Every
 * refusal is an RFC 6749 error.
 */
import { createHash, timingSafeEqual } from 'node:crypto';
import type { TokenForm } from '../contracts/oauth-token.ts';
import { sha256Hex } from '../crypto/hash.ts';
import type { Deps } from '../deps.ts';
import { AppError, fail } from '../errors.ts';
import { newSecret, newWriteId } from '../random.ts';
import { tooBusy } from '../rate-limit/rate-limit.ts';
import { burnCode, readAuthorizationCode, spendCode } from '../store/oauth.ts';
import { issueAccessToken } from './access-token.ts';
import { endGrant } from './grants.ts';
import { narrowScopes, REFRESH_TOKEN_TTL_SECONDS, type RefreshTokenRecord } from './model.ts';
import { refreshGrant } from './refresh.ts';
import { holdsResource, roleOnApplication, sameResource } from './role.ts';
import { answerOf, required, type TokenAnswer } from './token-answer.ts';

/** The token endpoint: the grant by its `grant_type`, after refusing client authentication. */
export async function exchangeToken(
  deps: Deps,
  form: TokenForm,
  authorization: string | undefined,
): Promise<TokenAnswer> {
  refuseClientAuthentication(deps, form, authorization);
  switch (form.grant_type) {
    case undefined:
      throw fail('oauthInvalidRequest', 'grant_type is required');
    case 'authorization_code':
      return exchangeCode(deps, form);
    case 'refresh_token':
      return refreshGrant(deps, form);
    default:
      throw fail('unsupportedGrantType', 'Only authorization_code and refresh_token are supported');
  }
}

/**
 * Public clients only (`token_endpoint_auth_methods_supported: ["none"]`), at the token and the
 * revocation endpoints alike: a client that tries to authenticate uses a method we do not support,
 * which RFC 6749 §5.2 names `invalid_client`. By an `Authorization` header: 401 with a
 * `WWW-Authenticate` challenge of the scheme it used (§5.2 requires it then); by a `client_secret`
 * in the body: 400 like every other OAuth error here.
 */
export function refuseClientAuthentication(
  deps: Deps,
  form: { client_secret?: string | undefined },
  authorization: string | undefined,
): void {
  if (authorization !== undefined)
    throw new AppError(
      'invalidClientAuthentication',
      'Client authentication is not supported: this server has public clients only',
      { headers: { 'www-authenticate': `${schemeOf(authorization)} realm="${deps.config.ISSUER}"` } },
    );
  if (form.client_secret !== undefined)
    throw fail(
      'invalidClient',
      'Client authentication is not supported: this server has public clients only',
    );
}

// RFC 9110 §11.1: an auth-scheme is a token; anything else is answered as Basic (RFC 6749 §2.3.1).
const SCHEME = /^[!#$%&'*+\-.^_`|~0-9A-Za-z]+$/;
const schemeOf = (authorization: string): string => {
  const [scheme = ''] = authorization.trim().split(/\s+/, 1);
  return SCHEME.test(scheme) ? scheme : 'Basic';
};

// RFC 7636 §4.1: 43 to 128 characters of the unreserved set.
const VERIFIER = /^[A-Za-z0-9\-._~]{43,128}$/;

/** RFC 7636 §4.6: BASE64URL(SHA256(verifier)) equals the challenge, compared in constant time. */
function verifierMatches(verifier: string, challenge: string): boolean {
  const computed = Buffer.from(createHash('sha256').update(verifier).digest('base64url'));
  const expected = Buffer.from(challenge);
  return computed.length === expected.length && timingSafeEqual(computed, expected);
}

/**
 * The authorization-code grant (OAuth 2.1 §4.1.3): the code exists, is unexpired (checked here:
 * TTL deletes late), unspent, and bound to this client, redirect URI, PKCE verifier and resource.
 * It is spent in ONE transaction with its grant and first refresh token; a second exchange (a
 * replay, or the loser of a parallel exchange) is `invalid_grant` and revokes the grant the first
 * one created, so that exchange's refresh tokens and access tokens stop working.
 */
async function exchangeCode(deps: Deps, form: TokenForm): Promise<TokenAnswer> {
  const fields = required(form, ['code', 'code_verifier', 'client_id', 'redirect_uri']);
  if (!VERIFIER.test(fields.code_verifier))
    throw fail('oauthInvalidRequest', 'code_verifier must be 43 to 128 unreserved characters');
  const codeHash = sha256Hex(fields.code);
  const code = await readAuthorizationCode(deps.db, codeHash);
  const now = Math.floor(deps.clock.now() / 1000);
  if (!code) throw fail('invalidGrant', 'The authorization code is not valid');
  if (code.usedAt !== undefined) {
    await endGrant(deps, code.userId, code.grantId);
    throw fail('invalidGrant', 'The authorization code is not valid');
  }
  if (code.expiresAt <= now) throw fail('invalidGrant', 'The authorization code has expired');
  if (code.clientId !== fields.client_id || code.redirectUri !== fields.redirect_uri)
    throw fail('invalidGrant', 'The authorization code was issued to another client or redirect URI');
  if (!verifierMatches(fields.code_verifier, code.codeChallenge))
    throw fail('invalidGrant', 'The code verifier does not match the challenge');
  // RFC 8707 §2.2: a resource sent again must be the one the code was authorized for, in any
  // spelling of it (the code holds the canonical form authorize stored).
  if (form.resource !== undefined && !sameResource(form.resource, code.resource))
    throw fail('invalidTarget', 'The resource is not the one the code was authorized for');

  // The role is read again, as every refresh does: a user removed or demoted since the
  // consent holds what the role allows now. The resource must still be the application's (an
  // external one may have been released and claimed by another tenant). A refusal spends the code.
  const held = await roleOnApplication(deps, code.userId, code.applicationId);
  const scopes = held ? narrowScopes(code.scopes, held.role) : [];
  if (!held || scopes.length === 0 || !(await holdsResource(deps, code.applicationId, code.resource))) {
    await burnCode(deps.db, codeHash, now);
    throw fail('invalidGrant', 'The authorization code is no longer valid for this user or resource');
  }

  // 256 random bits, shown once, stored as its SHA-256 (docs/oauth.md, "Refresh rotation").
  const refreshToken = newSecret(deps.random);
  const refresh: RefreshTokenRecord = {
    tokenHash: sha256Hex(refreshToken),
    grantId: code.grantId,
    userId: code.userId,
    clientId: code.clientId,
    resource: code.resource,
    issuedAt: now,
    expiresAt: now + REFRESH_TOKEN_TTL_SECONDS,
  };
  // Signed BEFORE the spend (every claim is known): a failed Sign leaves the code unspent and no
  // grant behind, so the client may retry; a token signed for a spend that loses is discarded.
  const issued = await issueAccessToken(deps, { ...refresh, scopes });
  const spent = await spendCode(deps.db, {
    codeHash,
    usedAt: now,
    writeId: newWriteId(deps.random),
    grant: {
      grantId: code.grantId,
      userId: code.userId,
      clientId: code.clientId,
      clientName: code.clientName,
      applicationId: code.applicationId,
      organizationId: held.application.organizationId,
      resource: code.resource,
      scopes,
      createdAt: now,
      lastUsedAt: now,
    },
    refresh,
  });
  if (spent === 'conflict') throw tooBusy();
  if (spent === 'spent') {
    await endGrant(deps, code.userId, code.grantId);
    throw fail('invalidGrant', 'The authorization code is not valid');
  }
  return answerOf(issued, refreshToken);
}
