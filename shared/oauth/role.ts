/**
 * The role a platform user holds on an application: their membership of the organization that owns
 * it. Authorize and consent narrow the requested scopes with it, and every refresh re-evaluates
 * them (docs/oauth.md, "Refresh rotation"), so a demoted or removed member loses `auth:write` or
 * the grant.
 */
import type { Deps } from '../deps.ts';
import { readMember } from '../store/organizations.ts';
import { type Application, getApplication } from '../tenancy/applications.ts';
import { applicationOfResource } from '../tenancy/configuration.ts';
import type { Role } from '../tenancy/permissions.ts';
import { canonicalResource, ownMcpResource } from '../tenancy/service-resources.ts';

export interface ApplicationRole {
  application: Application;
  /** Undefined: the user is no member of the owning organization (they may hold no scope). */
  role: Role | undefined;
}

/** Null when the application does not exist (any more). Two reads: the application, the membership. */
export async function roleOnApplication(
  deps: Deps,
  userId: string,
  applicationId: string,
): Promise<ApplicationRole | null> {
  const application = await getApplication(deps, applicationId);
  if (!application) return null;
  return { application, role: await roleIn(deps, application, userId) };
}

/** The user's role on an application already read: one strongly consistent GetItem of the membership. */
export async function roleIn(
  deps: Deps,
  application: Application,
  userId: string,
): Promise<Role | undefined> {
  const member = await readMember(deps.db, application.organizationId, userId);
  return member?.role;
}

/**
 * Whether `applicationId` still holds the OAuth resource `resource` (RFC 8707): its own MCP endpoint
 * always (no read); an external resource only while its configuration registers it (one read), so
 * a resource released and claimed by another tenant mints no more tokens for the first.
 */
export async function holdsResource(deps: Deps, applicationId: string, resource: string): Promise<boolean> {
  if (resource === ownMcpResource(deps.config.ISSUER, applicationId)) return true;
  return (await applicationOfResource(deps, resource)) === applicationId;
}

/**
 * Whether the `resource` a token request names is `held`, the resource of its code or grant: the
 * two compared in their canonical form (`canonicalResource`), so a client that repeats its own
 * spelling of the resource is not refused; a grant stored before codes held the canonical form
 * compares the same way.
 */
export function sameResource(asked: string, held: string): boolean {
  const canonical = canonicalResource(asked);
  return canonical !== null && canonical === (canonicalResource(held) ?? held);
}
