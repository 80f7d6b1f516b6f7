import type { Deps } from '../deps.ts';
import { fail } from '../errors.ts';
import { tooBusy } from '../rate-limit/rate-limit.ts';
import { keys } from '../store/keys.ts';
import { deleteTenantOrganization, dropMember, membershipsOf, readMany } from '../store/organizations.ts';
import { deleteUser as deleteStoredUser } from '../store/users.ts';
import type { Application } from '../tenancy/applications.ts';
import type { Role } from '../tenancy/permissions.ts';
import { endSessions, findUser } from './application-users.ts';
import { storedImageIdOf } from './user.ts';

/**
 * DELETE an application's user (issue 8). First, ONE transaction deletes its account and user items
 * (and its stored image) and uncounts it: every session lookup needs the account item, so its tokens
 * stop at once, and its address can sign up afresh. Then its sessions are deleted, and its
 * memberships: an organization it was the only member of is deleted with it; one with other members
 * loses it (if it was the last owner, the application's managers make another owner).
 */
export async function deleteUser(deps: Deps, application: Application, userId: string): Promise<void> {
  const item = await findUser(deps, application, userId);
  const outcome = await deleteStoredUser(deps.db, {
    userId,
    scope: application.id,
    email: item.email as string,
    imageId: storedImageIdOf(item),
  });
  if (outcome === 'missing') throw fail('notFound', 'No such user');
  if (outcome === 'conflict') throw tooBusy();
  await endSessions(deps, userId);
  await leaveOrganizations(deps, application, userId);
}

async function leaveOrganizations(deps: Deps, application: Application, userId: string): Promise<void> {
  const memberships = await membershipsOf(deps.db, userId);
  if (memberships.length === 0) return;
  const organizations = await readMany(
    deps.db,
    memberships.map((membership) => keys.organization(membership.organizationId as string)),
  );
  const memberCounts = new Map(
    organizations.map((org) => [org.id as string, (org.memberCount as number) ?? 1]),
  );
  for (const membership of memberships) {
    const organizationId = membership.organizationId as string;
    const alone = (memberCounts.get(organizationId) ?? 0) <= 1;
    // An organization is deleted with its members, so a membership names one that exists.
    if (alone) await deleteTenantOrganization(deps.db, application.id, organizationId);
    else await dropMember(deps.db, organizationId, { userId, role: membership.role as Role });
  }
}
