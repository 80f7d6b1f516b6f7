import type { Deps } from '../deps.ts';
import { fail } from '../errors.ts';
import { tooBusy } from '../rate-limit/rate-limit.ts';
import {
  acceptInvitation as acceptStored,
  deleteInvitation,
  invitationsOf,
  putInvitation,
  readInvitation,
  type StoredInvitation,
} from '../store/invitations.ts';
import type { User } from '../users/user.ts';
import type { Member, MemberActor } from './members.ts';
import type { Organization } from './organizations.ts';
import { mayManageRank, type Role } from './permissions.ts';

/** An invitation is valid a week; inviting the same address again replaces it (and its role). */
const INVITATION_SECONDS = 7 * 24 * 3600;

export interface Invitation {
  organizationId: string;
  organizationName: string;
  email: string;
  role: Role;
  invitedBy: string;
  createdAt: string;
  expiresAt: string;
}

const invitationView = (stored: StoredInvitation): Invitation => ({
  organizationId: stored.organizationId,
  organizationName: stored.organizationName,
  email: stored.email,
  role: stored.role,
  invitedBy: stored.invitedBy.email,
  createdAt: stored.createdAt,
  expiresAt: new Date(stored.expiresAt * 1000).toISOString(),
});

/**
 * Invites an address to a platform organization (issue 8 "add by email"). Nobody becomes a member
 * without accepting, and the answer is the same whether or not the address has an account, so
 * the route tells its caller nothing about who has one. A manager grants at most its own role.
 */
export async function inviteMember(
  deps: Deps,
  org: Organization,
  actor: MemberActor,
  input: { email: string; role: Role },
): Promise<Invitation> {
  if (actor.kind !== 'member') throw new Error('only members of a platform organization invite');
  if (!mayManageRank(actor.role, input.role))
    throw fail('forbidden', `An ${actor.role} cannot make an ${input.role}`);
  const now = deps.clock.now();
  const stored: StoredInvitation = {
    organizationId: org.id,
    organizationName: org.name,
    email: input.email,
    role: input.role,
    invitedBy: { userId: actor.userId, email: actor.email },
    createdAt: new Date(now).toISOString(),
    expiresAt: Math.floor(now / 1000) + INVITATION_SECONDS,
  };
  await putInvitation(deps.db, stored);
  return invitationView(stored);
}

const live = (deps: Deps) => (stored: StoredInvitation) => stored.expiresAt * 1000 > deps.clock.now();

/** The caller's pending invitations, newest first (TTL deletes late: expired ones are left out). */
export async function listInvitations(deps: Deps, user: User): Promise<Invitation[]> {
  const stored = (await invitationsOf(deps.db, user.email)) as unknown as StoredInvitation[];
  return stored
    .filter(live(deps))
    .sort((a, b) => b.createdAt.localeCompare(a.createdAt))
    .map(invitationView);
}

/** Accepts the caller's invitation to `organizationId`: it becomes a member with the invited role. */
export async function acceptInvitation(deps: Deps, user: User, organizationId: string): Promise<Member> {
  const stored = (await readInvitation(deps.db, user.email, organizationId)) as StoredInvitation | undefined;
  if (!stored || !live(deps)(stored)) throw fail('notFound', 'No pending invitation to this organization');
  const member: Member = {
    userId: user.id,
    email: user.email,
    role: stored.role,
    joinedAt: new Date(deps.clock.now()).toISOString(),
  };
  const outcome = await acceptStored(
    deps.db,
    stored,
    { userId: member.userId, email: member.email, role: member.role, createdAt: member.joinedAt },
    Math.floor(deps.clock.now() / 1000),
  );
  if (outcome === 'accepted') return member;
  if (outcome === 'conflict') throw tooBusy();
  if (outcome === 'gone') throw fail('notFound', 'No pending invitation to this organization');
  await deleteInvitation(deps.db, user.email, organizationId);
  if (outcome === 'organizationGone') throw fail('notFound', 'The organization no longer exists');
  throw fail('alreadyMember', 'You are already a member of this organization');
}

/** Declines (deletes) the caller's invitation to `organizationId`; declining none is no error. */
export async function declineInvitation(deps: Deps, user: User, organizationId: string): Promise<void> {
  await deleteInvitation(deps.db, user.email, organizationId);
}
