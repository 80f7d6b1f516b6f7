/**
 * Who calls an application's MCP endpoint: the user of a live grant, through a bearer access token
 * issued for this endpoint's resource (RFC 8707 audience). Verified locally against the published
 * keys (no KMS call), then ONE strongly consistent BatchGetItem of the grant and the application,
 * so a revoked connection's or a deleted application's tokens stop on their next call; then ONE
 * strongly consistent GetItem of the user's membership of the application's organization, so a
 * removal stops the tokens and a demotion narrows their scopes on the next call, not the next
 * refresh (docs/mcp.md, "Scopes and the step-up": the role bounds the scopes).
 */
import type { Deps } from '../deps.ts';
import { verifyAccessToken } from '../oauth/access-token.ts';
import { narrowScopes, type Scope } from '../oauth/model.ts';
import { roleIn } from '../oauth/role.ts';
import { readGrantAndApplication } from '../store/oauth.ts';
import { type Application, applicationFromRecord } from '../tenancy/applications.ts';
import type { Role } from '../tenancy/permissions.ts';
import { ownMcpResource } from '../tenancy/service-resources.ts';
import { resourceMetadataUrl, unauthorized } from './challenge.ts';

export interface McpPrincipal {
  readonly userId: string;
  readonly clientId: string;
  readonly grantId: string;
  /**
   * The token's scopes that its grant still holds (a refresh may have narrowed the grant since)
   * and the user's role allows now (a demotion narrows them at once).
   */
  readonly scopes: readonly Scope[];
  /** The user's role in the organization that owns the application, read on this very call. */
  readonly role: Role;
  readonly application: Application;
  /** The request's TCP peer and user agent (set by the endpoint once authenticated): the audit names them. */
  readonly client?: { ip: string; userAgent: string };
  /** The endpoint's protected resource metadata, named by every challenge. */
  readonly metadata: string;
}

/** RFC 6750 §2.1: `Bearer <token>`, the scheme case-insensitive. */
const BEARER = /^Bearer\s+(\S+)\s*$/i;

/**
 * The caller of `/mcp/{applicationId}`, or 401 with the challenge. An unknown application answers
 * the same 401 as a bad token (nothing is read before the token verifies): the endpoint never says
 * whether an application id exists.
 */
export async function authenticate(
  deps: Deps,
  applicationId: string,
  authorization: string | undefined,
): Promise<McpPrincipal> {
  const { ISSUER } = deps.config;
  const metadata = resourceMetadataUrl(ISSUER, applicationId);
  if (authorization === undefined) throw unauthorized(metadata, false);
  const token = BEARER.exec(authorization)?.[1];
  const resource = ownMcpResource(ISSUER, applicationId);
  const claims = token ? await verifyAccessToken(deps, token, resource) : null;
  if (!claims) throw unauthorized(metadata, true);
  const read = await readGrantAndApplication(deps.db, {
    userId: claims.sub,
    grantId: claims.gid,
    applicationId,
  });
  const grant = read.grant;
  const live =
    grant !== undefined &&
    grant.revokedAt === undefined &&
    grant.applicationId === applicationId &&
    grant.resource === resource &&
    grant.clientId === claims.client_id;
  if (!live || !read.application) throw unauthorized(metadata, true);
  const application = applicationFromRecord(read.application);
  const role = await roleIn(deps, application, claims.sub);
  if (!role) throw unauthorized(metadata, true);
  return {
    userId: claims.sub,
    clientId: claims.client_id,
    grantId: claims.gid,
    // The token's scopes that its grant still holds and the role allows on this very call.
    scopes: narrowScopes(claims.scope.split(' '), role).filter((scope) => grant.scopes.includes(scope)),
    role,
    application,
    metadata,
  };
}
