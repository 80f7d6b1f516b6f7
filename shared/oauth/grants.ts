/**
 * Grants as the user sees them: connections (docs/oauth.md, Connections). A grant is live while it
 * is unrevoked and its newest refresh token (issued at `lastUsedAt`) has not expired. Revoking one
 * sets `revokedAt` by a conditional write: its refresh tokens fail at once (the token endpoint
 * reads the grant) and its access tokens at the MCP endpoint on their next call (which reads it
 * too).
 */
import type { Deps } from '../deps.ts';
import { newWriteId } from '../random.ts';
import { grantsOf, revokeGrant } from '../store/oauth.ts';
import { unpaginated } from '../tenancy/pages.ts';
import { type GrantRecord, REFRESH_TOKEN_TTL_SECONDS } from './model.ts';

/** Ends a grant (a code replay, a refresh replay, a role gone, the user's revocation); true if this call did. */
export async function endGrant(deps: Deps, userId: string, grantId: string): Promise<boolean> {
  const outcome = await revokeGrant(deps.db, {
    userId,
    grantId,
    at: Math.floor(deps.clock.now() / 1000),
    writeId: newWriteId(deps.random),
  });
  return outcome === 'revoked';
}

const iso = (seconds: number) => new Date(seconds * 1000).toISOString();

const isLive = (now: number) => (grant: GrantRecord) =>
  grant.revokedAt === undefined && (grant.lastUsedAt + REFRESH_TOKEN_TTL_SECONDS) * 1000 > now;

/** GET /auth/list-connections: the user's live grants, newest first, unpaginated. */
export async function listConnections(deps: Deps, userId: string) {
  const grants = (await grantsOf(deps.db, userId))
    .filter(isLive(deps.clock.now()))
    .sort((a, b) => b.createdAt - a.createdAt || b.grantId.localeCompare(a.grantId));
  return unpaginated(
    grants.map((grant) => ({
      id: grant.grantId,
      clientId: grant.clientId,
      clientName: grant.clientName,
      applicationId: grant.applicationId,
      resource: grant.resource,
      scopes: grant.scopes,
      createdAt: iso(grant.createdAt),
      lastUsedAt: iso(grant.lastUsedAt),
    })),
  );
}

/**
 * POST /auth/revoke-connection: the caller's own grant only. An unknown id, another user's, or one
 * already revoked answers `revoked: false` alike (the key is in the caller's own partition, so
 * another user's grant is never even read).
 */
