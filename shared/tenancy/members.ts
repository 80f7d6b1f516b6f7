import type { Deps } from '../deps.ts';
import { fail } from '../errors.ts';
import { tooBusy } from '../rate-limit/rate-limit.ts';
import { readAccount } from '../store/accounts.ts';
import { keys } from '../store/keys.ts';
import {
  addMember as addStoredMember,
  changeMember,
  membersOf,
  readMany,
  readMember,
} from '../store/organizations.ts';
import type { Organization } from './organizations.ts';
import { mayChangeMember, mayManageRank, type Role } from './permissions.ts';

export interface Member {
  userId: string;
  email: string;
  role: Role;
  joinedAt: string;
}

/**
 * Memberships written at first sign-in before this API existed hold only `role` and `createdAt`:
 * their ids come from the keys (`ORG#<org>` / `MEMBER#<user>`), their address from the user's
 * profile when listed (`listMembers`).
 */
const memberFromItem = (item: Record<string, unknown>): Member => ({
  userId: (item.userId as string | undefined) ?? String(item.sk).slice('MEMBER#'.length),
  email: (item.email as string | undefined) ?? '',
  role: item.role as Role,
  joinedAt: item.createdAt as string,
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
  const members = (await membersOf(deps.db, org.id)).map(memberFromItem);
  const unnamed = members.filter((member) => member.email === '');
  if (unnamed.length > 0) {
    const profiles = await readMany(
      deps.db,
      unnamed.map((member) => keys.user(member.userId)),
    );
    const emails = new Map(profiles.map((item) => [item.id as string, item.email as string]));
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
    userId: account.userId as string,
    email: input.email,
    role: input.role,
    joinedAt: new Date(deps.clock.now()).toISOString(),
  };
  const outcome = await addStoredMember(deps.db, org.id, {
    userId: member.userId,
    email: member.email,
    role: member.role,
    createdAt: member.joinedAt,
  });
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
  org: Organization,
  actor: MemberActor,
  userId: string,
  role: Role,
) => (await updateMember(deps, org, actor, userId, role)) as Member;

export const removeMember = async (deps: Deps, org: Organization, actor: MemberActor, userId: string) => {
  await updateMember(deps, org, actor, userId, 'removed');
};

async function updateMember(
  deps: Deps,
  org: Organization,
  actor: MemberActor,
  userId: string,
  to: Role | 'removed',
): Promise<Member | null> {
  const item = await readMember(deps.db, org.id, userId);
  if (!item) throw fail('notFound', 'No such member');
  const member = memberFromItem(item);
  if (!mayChangeMember(actor, member, to)) {
    throw fail(
      'forbidden',
      to === 'removed' ? 'You cannot remove this member' : `You cannot make this member an ${to}`,
    );
  }
  if (to === member.role) return member;
  const outcome = await changeMember(deps.db, org.id, member, to);
  if (outcome === 'lastOwner') {
    throw fail('lastOwner', 'An organization always keeps an owner: make another member owner first');
  }
  if (outcome === 'missing') throw fail('notFound', 'No such organization');
  if (outcome === 'memberGone') throw fail('notFound', 'No such member');
  if (outcome !== 'written') throw tooBusy();
  return to === 'removed' ? null : { ...member, role: to };
}
