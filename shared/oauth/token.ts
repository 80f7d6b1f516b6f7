/**
 * POST /oauth/token (SPEC §4.2): public clients only, two grants. The authorization-code grant is
 * here; the refresh-token grant is shared/oauth/refresh.ts. Every refusal is an RFC 6749 error.
 */
import { createHash, timingSafeEqual } from 'node:crypto';
import type { TokenForm } from '../contracts/oauth-token.ts';
import { sha256Hex } from '../crypto/hash.ts';
import type { Deps } from '../deps.ts';
import { fail } from '../errors.ts';
import { newWriteId } from '../random.ts';
import { tooBusy } from '../rate-limit/rate-limit.ts';
import { readAuthorizationCode, spendCode } from '../store/oauth.ts';
import { endGrant } from './grants.ts';
import { REFRESH_TOKEN_TTL_SECONDS, type RefreshTokenRecord } from './model.ts';
import { refreshGrant } from './refresh.ts';
import { answer, required, type TokenAnswer } from './token-answer.ts';

/**
 * Public clients only (SPEC §4.2, `token_endpoint_auth_methods_supported: ["none"]`): a client that
 * tries to authenticate (a secret, or an `Authorization` header) uses a method we do not support,
 * which RFC 6749 §5.2 names `invalid_client`. Answered 400 like every other OAuth error here.
 */
export async function exchangeToken(
  deps: Deps,
  form: TokenForm,
  authorization: string | undefined,
): Promise<TokenAnswer> {
  if (authorization !== undefined || form.client_secret !== undefined)
    throw fail(
      'invalidClient',
      'Client authentication is not supported: this server has public clients only',
    );
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
  // RFC 8707 §2.2: a resource sent again must be the one the code was authorized for.
  if (form.resource !== undefined && form.resource !== code.resource)
    throw fail('invalidTarget', 'The resource is not the one the code was authorized for');

  // 256 random bits, shown once, stored as its SHA-256 (DESIGN §3).
  const refreshToken = Buffer.from(deps.random.bytes(32)).toString('base64url');
  const refresh: RefreshTokenRecord = {
    tokenHash: sha256Hex(refreshToken),
    grantId: code.grantId,
    userId: code.userId,
    clientId: code.clientId,
    resource: code.resource,
    issuedAt: now,
    expiresAt: now + REFRESH_TOKEN_TTL_SECONDS,
  };
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
      resource: code.resource,
      scopes: code.scopes,
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
  return answer(deps, { ...refresh, scopes: code.scopes }, refreshToken);
}
