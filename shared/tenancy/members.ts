import type { Deps } from '../deps.ts';
import { fail } from '../errors.ts';
import { tooBusy } from '../rate-limit/rate-limit.ts';
import { readAccount } from '../store/accounts.ts';
import type { AuditChange } from '../store/audit.ts';
import {
  addMember as addStoredMember,
  changeMember,
  type MemberRecord,
  membersOf,
  readMember,
} from '../store/organizations.ts';
import { readProfiles } from '../store/users.ts';
import { type AuditRequest, changeEntry } from './audit.ts';
import { type EndCause, endingsOf, endRest, mayImpersonate } from './impersonation.ts';
import type { Organization } from './organizations.ts';
import { mayChangeMember, mayManageRank, type Role } from './permissions.ts';

export interface Member {
  userId: string;
  email: string;
  role: Role;
  joinedAt: string;
}

/**
 * Memberships written at first sign-in before this API existed hold only `role` and `createdAt`
 * (the store takes their ids from their keys): their address comes from the user's profile when
 * listed (`listMembers`).
 */
const memberFromRecord = (record: MemberRecord): Member => ({
  userId: record.userId,
  email: record.email ?? '',
  role: record.role,
  joinedAt: record.createdAt,
});

/** Who changes the membership: a member of the organization with its role, or the application's secret key. */
export type MemberActor =
  | { kind: 'member'; role: Role; userId: string; email: string }
  | { kind: 'secretKey' };

/** The scope whose accounts may join: the platform's for a platform organization, else its application's. */
const scopeOf = (org: Organization) => org.applicationId ?? 'platform';

/** Every member, owners first, then by joining time. */
export async function listMembers(deps: Deps, org: Organization): Promise<Member[]> {
  const order: Record<Role, number> = { owner: 0, admin: 1, member: 2 };
  const members = (await membersOf(deps.db, org.id)).map(memberFromRecord);
  const unnamed = members.filter((member) => member.email === '');
  if (unnamed.length > 0) {
    const profiles = await readProfiles(
      deps.db,
      unnamed.map((member) => member.userId),
    );
    const emails = new Map(profiles.map((profile) => [profile.id, profile.email]));
    for (const member of unnamed) member.email = emails.get(member.userId) ?? '';
  }
  return members.sort((a, b) => order[a.role] - order[b.role] || a.joinedAt.localeCompare(b.joinedAt));
}

/**
 * Adds the account of `email` (it must exist in the organization's scope: the person signed in
 * once) with `role`. 404 for no such account, 403 to grant a role above one's own, 409 ALREADY_MEMBER.
 */
export async function addMember(
  deps: Deps,
  audit: AuditRequest,
  org: Organization,
  actor: MemberActor,
  input: { email: string; role: Role },
): Promise<Member> {
  if (actor.kind === 'member' && !mayManageRank(actor.role, input.role)) {
    throw fail('forbidden', `An ${actor.role} cannot make an ${input.role}`);
  }
  const account = await readAccount(deps.db, scopeOf(org), input.email);
  if (!account) {
    throw fail('notFound', 'No account has this address yet: its owner signs in once, then can be added');
  }
  const member: Member = {
    userId: account.userId,
    email: input.email,
    role: input.role,
    joinedAt: new Date(deps.clock.now()).toISOString(),
  };
  const outcome = await addStoredMember(
    deps.db,
    org.id,
    { userId: member.userId, email: member.email, role: member.role, createdAt: member.joinedAt },
    memberEntry(deps, audit, org, 'added', member, [{ path: 'role', from: null, to: member.role }]),
  );
  if (outcome === 'exists') throw fail('alreadyMember', 'This account is already a member');
  if (outcome === 'missing') throw fail('notFound', 'No such organization');
  if (outcome !== 'written') throw tooBusy();
  return member;
}

/**
 * Changes a member's role or removes it (`removed`), keeping an owner (409 LAST_OWNER): who may do
 * what is `mayChangeMember` (shared/tenancy/permissions.ts). Removing a member that is not there is 404.
 */
export const changeRole = async (
  deps: Deps,
  audit: AuditRequest,
  org: Organization,
  actor: MemberActor,
  userId: string,
  role: Role,
) => (await updateMember(deps, audit, org, actor, userId, role)) as Member;

export const removeMember = async (
  deps: Deps,
  audit: AuditRequest,
  org: Organization,
  actor: MemberActor,
  userId: string,
) => {
  await updateMember(deps, audit, org, actor, userId, 'removed');
};

/**
 * A membership change's entry: a platform organization's on its own trail (`member.*`), a tenant
 * organization's on its application's (`tenantMember.*`), the member's user id as target.
 */
function memberEntry(
  deps: Deps,
  audit: AuditRequest,
  org: Organization,
  change: 'added' | 'roleChanged' | 'removed' | 'left',
  member: { userId: string; email: string },
  changes?: AuditChange[],
) {
  if (!org.applicationId && change === 'added') {
    throw new Error('a platform organization gains members only by invitation (invitation.accepted)');
  }
  const action = org.applicationId
    ? (`tenantMember.${change === 'left' ? 'removed' : change}` as const)
    : (`member.${change as Exclude<typeof change, 'added'>}` as const);
  return changeEntry(deps, audit, action, {
    organizationId: org.id,
    ...(org.applicationId ? { applicationId: org.applicationId } : {}),
    targetId: member.userId,
    ...(member.email ? { targetLabel: member.email } : {}),
    ...(changes ? { changes } : {}),
  });
}

/**
 * Reads of the member before a change gives up (429), when the member keeps starting
 * impersonations, or they keep being ended, between the read and the change.
 */
const CHANGE_ROUNDS = 5;

/**
 * Why a change ends the member's running impersonations (docs/api.md, Impersonation): it loses the
 * role that let it start them, or the membership; null when it keeps the role (or never held it).
 */
function endCause(actor: MemberActor, member: Member, to: Role | 'removed'): EndCause | null {
  if (!mayImpersonate(member.role) || (to !== 'removed' && mayImpersonate(to))) return null;
  if (to !== 'removed') return 'member-demoted';
  return actor.kind === 'member' && actor.userId === member.userId ? 'member-left' : 'member-removed';
}

async function updateMember(
  deps: Deps,
  audit: AuditRequest,
  org: Organization,
  actor: MemberActor,
  userId: string,
  to: Role | 'removed',
): Promise<Member | null> {
  for (let round = 0; round < CHANGE_ROUNDS; round++) {
    const record = await readMember(deps.db, org.id, userId);
    if (!record) throw fail('notFound', 'No such member');
    const member = memberFromRecord(record);
    if (!mayChangeMember(actor, member, to)) {
      throw fail(
        'forbidden',
        to === 'removed' ? 'You cannot remove this member' : `You cannot make this member an ${to}`,
      );
    }
    if (to === member.role) return member;
    // Losing the role ends what it allowed (only platform organizations' members impersonate): the
    // impersonations are read after the membership, and the change holds only while no start
    // came between (shared/store/organizations.ts `changeMember`).
    const cause = org.kind === 'platform' ? endCause(actor, member, to) : null;
    const endings = cause ? await endingsOf(deps, org.id, { actorId: member.userId }, cause) : null;
    const outcome = await changeMember(
      deps.db,
      org.id,
      member,
      to,
      endings
        ? {
            impersonationStarts: record.impersonationStarts ?? 0,
            writes: endings.writes,
          }
        : undefined,
      memberEntry(
        deps,
        audit,
        org,
        to !== 'removed'
          ? 'roleChanged'
          : actor.kind === 'member' && actor.userId === member.userId
            ? 'left'
            : 'removed',
        member,
        [{ path: 'role', from: member.role, to: to === 'removed' ? null : to }],
      ),
    );
    if (outcome === 'raced') continue;
    if (outcome === 'lastOwner') {
      throw fail('lastOwner', 'An organization always keeps an owner: make another member owner first');
    }
    if (outcome === 'missing') throw fail('notFound', 'No such organization');
    if (outcome === 'memberGone') throw fail('notFound', 'No such member');
    if (outcome !== 'written') throw tooBusy();
    if (endings) await endRest(deps, endings);
    return to === 'removed' ? null : { ...member, role: to };
  }
  throw tooBusy();
}
