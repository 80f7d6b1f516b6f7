/**
 * POST /oauth/revoke (docs/oauth.md, "Revocation"; RFC 7009, https://www.rfc-editor.org/rfc/rfc7009):
 * a client ends a token it holds, a refresh token or an access token, and with it the whole grant
 * (RFC 7009 §2.1 allows that for both): every refresh token of the grant fails at once (the token
 * endpoint reads the grant) and every access token at the MCP endpoint's next call (which reads it
 * too). Public clients only, as at the token endpoint, identified by their `client_id` (§5). A token
 * the service does not know, one expired, one of a grant already ended, or one of another client
 * answers 200 like a revoked one (§2.2): the answer says nothing about a token.
 */
import type { RevocationForm } from '../contracts/oauth-token.ts';
import { sha256Hex } from '../crypto/hash.ts';
import type { Deps } from '../deps.ts';
import { readRefreshToken } from '../store/oauth.ts';
import { verifyAccessToken } from './access-token.ts';
import { endGrant } from './grants.ts';
import { refuseClientAuthentication } from './token.ts';

/** The grant a token belongs to and the client it was issued to; undefined for a token not ours or dead. */
interface Held {
  userId: string;
  grantId: string;
  clientId: string;
}

async function asRefreshToken(deps: Deps, token: string): Promise<Held | undefined> {
  const record = await readRefreshToken(deps.db, sha256Hex(token));
  // TTL deletes late: an expired token ends nothing.
  if (!record || record.expiresAt <= Math.floor(deps.clock.now() / 1000)) return undefined;
  return { userId: record.userId, grantId: record.grantId, clientId: record.clientId };
}

async function asAccessToken(deps: Deps, token: string): Promise<Held | undefined> {
  const claims = await verifyAccessToken(deps, token, 'any');
  return claims ? { userId: claims.sub, grantId: claims.gid, clientId: claims.client_id } : undefined;
}

/**
 * Ends the grant of `token`. `token_type_hint` only orders the search (RFC 7009 §2.1: a server that
 * does not find the token by the hint searches every type it supports), so an unknown hint is no
 * error. The token must have been issued to the client asking (§2.1): one of another client ends
 * nothing and is answered like a token not found, so a caller holding a token cannot learn whether
 * it is live without ending it (it is logged, for the operator).
 */
export async function revokeToken(
  deps: Deps,
  form: RevocationForm,
  authorization: string | undefined,
): Promise<void> {
  refuseClientAuthentication(deps, form, authorization);
  const { token, client_id: clientId } = form;
  // An access token is a JWT (three dot-separated parts); a refresh token is an opaque secret.
  const order =
    form.token_type_hint === 'access_token' || (form.token_type_hint === undefined && token.includes('.'))
      ? [asAccessToken, asRefreshToken]
      : [asRefreshToken, asAccessToken];
  let held: Held | undefined;
  for (const find of order) {
    held = await find(deps, token);
    if (held) break;
  }
  if (!held) return;
  if (clientId !== held.clientId) {
    deps.logger.log('warn', 'a token revoked by another client', { grantId: held.grantId });
    return;
  }
  await endGrant(deps, held.userId, held.grantId);
}
