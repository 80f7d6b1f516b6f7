import type { Deps } from '../deps.ts';
import { fail } from '../errors.ts';
import { storedImageIdOf } from '../identity/user.ts';
import { tooBusy } from '../rate-limit/rate-limit.ts';
import {
  deleteTenantOrganization,
  dropMember,
  membershipsOf,
  readOrganizations,
} from '../store/organizations.ts';
import { deleteUser as deleteStoredUser } from '../store/users.ts';
import type { Application } from '../tenancy/applications.ts';
import type { AuditRequest } from '../tenancy/audit.ts';
import { endSessions, findUser, userEntry, writeDisabled } from './application-users.ts';

/**
 * DELETE an application's user (docs/api.md, Users), in an order that a failed delete can simply be
 * retried: every step before the last is idempotent, and the user stays findable until the last.
 * 1. The user is disabled (one transaction, as POST .../disable): its tokens stop at once, and no
 *    sign-in or impersonation can add a session while the rest runs.
 * 2. Its sessions end, uncounted from the statistics (impersonations ended and recorded).
 * 3. It leaves its organizations: one it was the only member of is deleted with it, unless someone
 *    joined since (then it only leaves); one with other members loses it (if it was the last owner,
 *    the application's managers make another owner).
 * 4. LAST, ONE transaction deletes its account and user items (and its stored image) and uncounts
 *    it: its address can sign up afresh.
 * A failure between the steps leaves a disabled user with fewer sessions or memberships; the retry
 * finds it and does the rest. A retry after step 4 answers 404: the user is gone whole.
 */
export async function deleteUser(
  deps: Deps,
  audit: AuditRequest,
  application: Application,
  userId: string,
): Promise<void> {
  const item = await findUser(deps, application, userId);
  if (item.disabledAt === undefined)
    await writeDisabled(deps, item, new Date(deps.clock.now()).toISOString());
  await endSessions(deps, userId, 'user-deleted');
  await leaveOrganizations(deps, application, userId);
  const outcome = await deleteStoredUser(
    deps.db,
    {
      userId,
      scope: application.id,
      email: item.email,
      imageId: storedImageIdOf(item),
    },
    userEntry(deps, audit, 'user.deleted', application, item),
  );
  if (outcome === 'missing') throw fail('notFound', 'No such user');
  if (outcome === 'conflict') throw tooBusy();
}

async function leaveOrganizations(deps: Deps, application: Application, userId: string): Promise<void> {
  const memberships = await membershipsOf(deps.db, userId);
  if (memberships.length === 0) return;
  const organizations = await readOrganizations(
    deps.db,
    memberships.map((membership) => membership.organizationId),
  );
  const memberCounts = new Map(organizations.map((org) => [org.id, org.memberCount ?? 1]));
  for (const membership of memberships) {
    const organizationId = membership.organizationId;
    const member = { userId, role: membership.role };
    // A membership read from the index may outlive its organization by the index's lag (a retry).
    if (!memberCounts.has(organizationId)) continue;
    // Deleted with the user only while the user is still its one member: the delete is conditioned
    // on that count, so a member who joined since the read keeps the organization.
    const alone = (memberCounts.get(organizationId) ?? 0) <= 1;
    const deleted = alone
      ? await deleteTenantOrganization(deps.db, application.id, organizationId, { expectedMembers: 1 })
      : null;
    if (deleted === 'conflict') throw tooBusy();
    if (deleted === 'deleted' || deleted === 'missing') continue;
    const dropped = await dropMember(deps.db, organizationId, member);
    if (dropped === 'conflict') throw tooBusy();
  }
}
