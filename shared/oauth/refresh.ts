/**
 * The refresh-token grant (docs/oauth.md, "Refresh rotation"): single-use rotation by a conditional
 * write, a 30-second grace for replays, the grant's scopes re-evaluated against the user's current
 * role.
 *
 * The successor of a refresh token is derived from it: the HMAC of the token under the server-side
 * code-hash key (the one that keys sign-in codes, which readers of the table do not have). So every
 * rotation of one token (the first, a parallel one, a replay in the grace window) names the SAME
 * successor item, written with `if_not_exists` (shared/store/oauth.ts): never two live successors,
 * and a replayed request gets the same new refresh token with a fresh access token. A replay after
 * the grace window means the token leaked or the client is broken: the whole grant is revoked.
 */
import type { TokenForm } from '../contracts/oauth-token.ts';
import { sha256Hex } from '../crypto/hash.ts';
import type { Deps } from '../deps.ts';
import { fail } from '../errors.ts';
import { tooBusy } from '../rate-limit/rate-limit.ts';
import { readGrant, readRefreshToken, rotateRefreshToken } from '../store/oauth.ts';
import { endGrant } from './grants.ts';
import {
  grantedScopes,
  narrowScopes,
  REFRESH_REPLAY_GRACE_SECONDS,
  REFRESH_TOKEN_TTL_SECONDS,
} from './model.ts';
import { holdsResource, roleOnApplication, sameResource } from './role.ts';
import { answer, required, type TokenAnswer } from './token-answer.ts';

/** Names the HMAC's use, so a successor can never equal a sign-in code's hash. */
const SUCCESSOR_PURPOSE = 'oauth-refresh-successor';

/** The one successor of `token`: 256 bits, unpredictable without the server-side key. */
async function successorOf(deps: Deps, token: string): Promise<string> {
  return Buffer.from(await deps.codeHasher.hash(SUCCESSOR_PURPOSE, token), 'hex').toString('base64url');
}

const invalid = () => fail('invalidGrant', 'The refresh token is not valid');

export async function refreshGrant(deps: Deps, form: TokenForm): Promise<TokenAnswer> {
  const { refresh_token: token } = required(form, ['refresh_token']);
  const tokenHash = sha256Hex(token);
  const record = await readRefreshToken(deps.db, tokenHash);
  const now = Math.floor(deps.clock.now() / 1000);
  // TTL deletes late: an expired token is checked here.
  if (!record || record.expiresAt <= now) throw invalid();
  // RFC 6749 §6: a refresh token is bound to the client it was issued to.
  if (form.client_id !== undefined && form.client_id !== record.clientId) throw invalid();
  // RFC 8707 §2.2: one resource per grant, so `resource` may only repeat it.
  if (form.resource !== undefined && !sameResource(form.resource, record.resource))
    throw fail('invalidTarget', 'The resource is not the one this grant was authorized for');
  const graceStart = now - REFRESH_REPLAY_GRACE_SECONDS;
  if (record.rotatedAt !== undefined && record.rotatedAt <= graceStart) {
    await endGrant(deps, record.userId, record.grantId);
    throw invalid();
  }
  const grant = await readGrant(deps.db, record.userId, record.grantId);
  if (!grant || grant.revokedAt !== undefined) throw invalid();

  // Re-evaluated against the current role; a role or application gone ends the grant.
  // So does an external resource the application released (another tenant may hold it now); its
  // own MCP endpoint needs no read.
  const held = await roleOnApplication(deps, grant.userId, grant.applicationId);
  const scopes = held ? narrowScopes(grant.scopes, held.role) : [];
  if (scopes.length === 0 || !(await holdsResource(deps, grant.applicationId, record.resource))) {
    await endGrant(deps, grant.userId, grant.grantId);
    throw invalid();
  }
  // RFC 6749 §6: `scope` may only narrow, for this access token; the grant keeps what the role allows.
  const asked =
    form.scope === undefined
      ? scopes
      : grantedScopes(form.scope, held?.role).filter((scope) => scopes.includes(scope));
  if (asked.length === 0) throw fail('invalidScope', 'The scope names none of the scopes this grant holds');

  const successor = await successorOf(deps, token);
  const rotated = await rotateRefreshToken(deps.db, {
    oldHash: tokenHash,
    now,
    graceStart,
    scopes,
    successor: {
      tokenHash: sha256Hex(successor),
      grantId: record.grantId,
      userId: record.userId,
      clientId: record.clientId,
      resource: record.resource,
      issuedAt: now,
      expiresAt: now + REFRESH_TOKEN_TTL_SECONDS,
    },
  });
  if (rotated === 'conflict') throw tooBusy();
  if (rotated === 'revoked') throw invalid();
  if (rotated === 'replayed') {
    // Rotated by another request since our read, longer ago than the grace: a late replay.
    await endGrant(deps, record.userId, record.grantId);
    throw invalid();
  }
  return answer(deps, { ...record, scopes: asked }, successor);
}
