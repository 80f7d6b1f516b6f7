import type { KeyHolderWithApplication, SessionCaller } from '../sessions/caller.ts';
import type { AuditRequest } from '../tenancy/audit.ts';
import type { ApplicationGrant, OrganizationGrant, PlatformGrant } from '../tenancy/authorize.ts';
import { keptUserAgent } from '../user-agent.ts';

/**
 * The actor of an authorized management request: the member (or platform user) the matrix let
 * through, or the application's secret key, named by its id (`legacy-key` for a key made before keys
 * had ids) and first characters (never itself).
 */
export function auditRequestOf(
  grant: PlatformGrant | OrganizationGrant | ApplicationGrant,
  caller: KeyHolderWithApplication | SessionCaller,
  client: { ip: string; userAgent: string; apiKey: string | undefined },
): AuditRequest {
  const request = { ip: client.ip, userAgent: keptUserAgent(client.userAgent) };
  if (grant.target === 'platform') {
    return { ...request, actor: { kind: 'user', userId: grant.user.id, email: grant.user.email } };
  }
  const { principal } = grant;
  if (principal.kind === 'member' || principal.kind === 'endUser') {
    return { ...request, actor: { kind: 'user', userId: principal.user.id, email: principal.user.email } };
  }
  const key = caller.key;
  if (!key) throw new Error(`a ${principal.kind} principal without a key`);
  return {
    ...request,
    actor: {
      kind: 'key',
      keyId: key.use?.keyId ?? 'legacy-key',
      prefix: (client.apiKey ?? '').slice(0, 7),
    },
  };
}
