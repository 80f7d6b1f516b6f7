/**
 * An application's end users as its managers see them (docs/api.md, Users: list, search, read,
 * update, disable, enable, revoke sessions; delete is shared/users/delete-user.ts). The matrix
 * allowed the caller on the application already; a user of another application (or of the platform)
 * is 404.
 */
import type { Deps } from '../deps.ts';
import { fail } from '../errors.ts';
import { storedImageIdOf, userFromRecord } from '../identity/user.ts';
import { tooBusy } from '../rate-limit/rate-limit.ts';
import { endAllSessions } from '../sessions/manage.ts';
import { type AuditChange, appendAudit, type StoredAuditEntry } from '../store/audit.ts';
import {
  type ProfileRecord,
  readUser,
  searchUsers as searchStoredUsers,
  setDisabled,
  usersOf,
} from '../store/users.ts';
import type { Application } from '../tenancy/applications.ts';
import { type AuditRequest, changeEntry, changesBetween } from '../tenancy/audit.ts';
import type { EndCause } from '../tenancy/impersonation.ts';
import { applicationTotals } from '../tenancy/statistics.ts';
import { changeProfile, type ProfileChange } from './update-user.ts';

/**
 * The User plus what managers see (docs/api.md, "The managed User"; shared/contracts/users.ts
 * ManagedUser).
 */
function managedUserFromRecord(profile: ProfileRecord, issuer: string) {
  const disabledAt = profile.disabledAt ?? null;
  return {
    ...userFromRecord(profile, issuer),
    disabled: disabledAt !== null,
    disabledAt,
    lastSignInAt: profile.lastSignInAt ?? null,
  };
}
export type ManagedUser = ReturnType<typeof managedUserFromRecord>;

interface PageRequest {
  limit: number;
  offset: number;
}

/** The application's user item of `userId`: 404 for no such user, or one of another scope. */
export async function findUser(deps: Deps, application: Application, userId: string): Promise<ProfileRecord> {
  const profile = await readUser(deps.db, userId);
  if (!profile || profile.scope !== application.id) throw fail('notFound', 'No such user');
  return profile;
}

/**
 * One page by address; `total` is the application's counter (never a scan), which the statistics
 * aggregator keeps a few seconds behind (docs/api.md, Users), so `hasMore` comes from reading one
 * user past the page.
 */
export async function listUsers(deps: Deps, application: Application, page: PageRequest) {
  const items = await usersOf(deps.db, application.id, { ...page, limit: page.limit + 1 });
  const totals = await applicationTotals(deps, application);
  return {
    items: items.slice(0, page.limit).map((profile) => managedUserFromRecord(profile, deps.config.ISSUER)),
    page: { ...page, total: totals.users, hasMore: items.length > page.limit },
  };
}

/** Matches read per index at most: a prefix that matches more is to be narrowed down. */
const SEARCH_CAP = 1000;

/**
 * Insights search: users whose address or name starts with `q`, case-insensitively, by address.
 * `total` is null when either index held more than SEARCH_CAP matches; only the matches read are
 * paged (`hasMore` ends with them), so a client paging to the end stops there: narrow the query.
 */
export async function searchUsers(deps: Deps, application: Application, q: string, page: PageRequest) {
  const found = await searchStoredUsers(deps.db, application.id, q, SEARCH_CAP);
  const byId = new Map([...found.byEmail, ...found.byName].map((profile) => [profile.id, profile]));
  const matches = [...byId.values()].sort(
    (a, b) => a.email.localeCompare(b.email) || a.id.localeCompare(b.id),
  );
  const items = matches.slice(page.offset, page.offset + page.limit);
  return {
    items: items.map((profile) => managedUserFromRecord(profile, deps.config.ISSUER)),
    page: {
      ...page,
      total: found.capped ? null : matches.length,
      // Past the matches it read, a capped search has nothing more to give: narrow the query.
      hasMore: page.offset + items.length < matches.length,
    },
  };
}

export async function getUser(deps: Deps, application: Application, userId: string): Promise<ManagedUser> {
  return managedUserFromRecord(await findUser(deps, application, userId), deps.config.ISSUER);
}

/** PATCH: name and image as in update-user (docs/api.md, Users), with the same stored-image handling. */
export async function updateUser(
  deps: Deps,
  audit: AuditRequest,
  application: Application,
  userId: string,
  change: ProfileChange,
): Promise<ManagedUser> {
  const item = await findUser(deps, application, userId);
  const user = userFromRecord(item, deps.config.ISSUER);
  const updated = await changeProfile(
    deps,
    { user, imageId: storedImageIdOf(item), scope: application.id },
    change,
    (before, after) => {
      // An uploaded photo is named by its URL, which changes with its bytes.
      const changes = changesBetween(before, after, ['name', 'image']);
      return changes.length === 0 ? null : userEntry(deps, audit, 'user.updated', application, item, changes);
    },
  );
  if (!updated) throw fail('notFound', 'No such user');
  return { ...managedUserFromRecord(item, deps.config.ISSUER), ...updated };
}

/**
 * Disable: the account and user items say `disabledAt` (one transaction), so every session lookup
 * refuses its tokens at once and sign-in is refused (403 ACCOUNT_DISABLED); its sessions are then
 * deleted, so enabling it later does not bring old tokens back. Disabling twice keeps the first time.
 */
export async function disableUser(
  deps: Deps,
  audit: AuditRequest,
  application: Application,
  userId: string,
): Promise<ManagedUser> {
  const item = await findUser(deps, application, userId);
  const at = item.disabledAt ?? new Date(deps.clock.now()).toISOString();
  await writeDisabled(deps, item, at, userEntry(deps, audit, 'user.disabled', application, item));
  await endSessions(deps, userId, 'user-disabled');
  return managedUserFromRecord({ ...item, disabledAt: at }, deps.config.ISSUER);
}

/**
 * Enable: sign-in works again (a code sent before still works while it lives); old tokens stay
 * ended. A disabled user's sessions are ended again BEFORE `disabledAt` goes: a disable that failed
 * after writing `disabledAt` (its sessions half ended) must not let enable bring them back.
 */
export async function enableUser(
  deps: Deps,
  audit: AuditRequest,
  application: Application,
  userId: string,
): Promise<ManagedUser> {
  const item = await findUser(deps, application, userId);
  if (item.disabledAt !== undefined) await endSessions(deps, userId, 'user-disabled');
  await writeDisabled(deps, item, null, userEntry(deps, audit, 'user.enabled', application, item));
  const { disabledAt: _gone, ...enabled } = item;
  return managedUserFromRecord(enabled, deps.config.ISSUER);
}

/**
 * Sets or clears `disabledAt`. With `audit`, only a change of state is recorded: disabling a disabled
 * user (or enabling an enabled one) writes again without an entry, as a no-op records nothing.
 */
export async function writeDisabled(
  deps: Deps,
  profile: ProfileRecord,
  at: string | null,
  audit?: StoredAuditEntry,
): Promise<void> {
  const account = { userId: profile.id, scope: String(profile.scope), email: profile.email };
  const changes = (profile.disabledAt === undefined) === (at !== null);
  let outcome = await setDisabled(deps.db, account, at, changes ? audit : undefined);
  if (outcome === 'unchanged') outcome = await setDisabled(deps.db, account, at);
  if (outcome === 'missing' || outcome === 'unchanged') throw fail('notFound', 'No such user');
  if (outcome === 'conflict') throw tooBusy();
}

/** The entry of a manager's change to one of the application's end users. */
export const userEntry = (
  deps: Deps,
  audit: AuditRequest,
  action: 'user.updated' | 'user.disabled' | 'user.enabled' | 'user.deleted' | 'user.sessionsRevoked',
  application: Application,
  profile: ProfileRecord,
  changes?: AuditChange[],
) =>
  changeEntry(deps, audit, action, {
    organizationId: application.organizationId,
    applicationId: application.id,
    targetId: profile.id,
    targetLabel: profile.email,
    ...(changes ? { changes } : {}),
  });

/** Revoke sessions: every session of the user ends; the count is of the live ones. */
export async function revokeUserSessions(
  deps: Deps,
  audit: AuditRequest,
  application: Application,
  userId: string,
) {
  const item = await findUser(deps, application, userId);
  const count = await endSessions(deps, userId, 'session-revoked');
  // Sessions end in writes of their own (shared/sessions/manage.ts); the entry follows them, once
  // any ended: a user without a live session has nothing to revoke and nothing is recorded.
  if (count > 0) {
    const entry = userEntry(deps, audit, 'user.sessionsRevoked', application, item, [
      { path: 'sessions', from: count, to: 0 },
    ]);
    await appendAudit(deps.db, entry);
  }
  return { revoked: true as const, count };
}

/**
 * Ends every session of a user, uncounted from the statistics, a live impersonation of it recorded
 * as ended by `cause`; answers how many were alive.
 */
export const endSessions = (deps: Deps, userId: string, cause: EndCause): Promise<number> =>
  endAllSessions(deps, userId, cause);
