import type { Deps } from '../deps.ts';
import { fail } from '../errors.ts';
import type { User } from '../identity/user.ts';
import { tooBusy } from '../rate-limit/rate-limit.ts';
import { type AuditChange, auditWrites } from '../store/audit.ts';
import {
  acceptInvitation as acceptStored,
  deleteInvitation,
  deleteInvitationAsRead,
  heldSinceInvited,
  invitationsOf,
  invitationsOfOrganization,
  memberships,
  putInvitation,
  readInvitation,
  revokeInvitation as revokeStored,
  type StoredInvitation,
} from '../store/invitations.ts';
import { type MemberRecord, readMember } from '../store/organizations.ts';
import { type AuditRequest, changeEntry } from './audit.ts';
import type { Member, MemberActor } from './members.ts';
import type { Organization } from './organizations.ts';
import { mayAct, mayManageRank, ROLES, type Role } from './permissions.ts';

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

/** An organization's pending invitation as its managers see it: who invited whom. */
export interface PendingInvitation {
  email: string;
  role: Role;
  invitedBy: { userId: string; email: string };
  createdAt: string;
  expiresAt: string;
}

/**
 * Whether a member of role `held` may send an invitation of role `offered`: the check of
 * `inviteMember`, which an invitation must still pass when accepted (docs/api.md, Organizations).
 */
const mayOffer = (held: Role, offered: Role): boolean =>
  mayAct('members.add', held) && mayManageRank(held, offered);

/**
 * The roles that may offer `role`: an invitation stands only while its inviter is a member holding
 * one of them, so the invitations of a manager removed or demoted since are void.
 */
const rolesOffering = (role: Role): Role[] => ROLES.filter((held) => mayOffer(held, role));

/**
 * Whether an invitation stands: its inviter is a member now (`membership`, absent: not), of a role
 * that may offer it, and has been since it was sent (not made again, no rights lost in between).
 */
const stands = (membership: MemberRecord | undefined, invitation: StoredInvitation): boolean =>
  membership !== undefined &&
  mayOffer(membership.role, invitation.role) &&
  heldSinceInvited(membership, invitation.role, invitation.createdAt);

const noInvitation = () => fail('notFound', 'No pending invitation to this organization');

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
 * Invites an address to a platform organization (docs/api.md, Organizations). Nobody becomes a
 * member without accepting, and the answer is the same whether or not the address has an account,
 * so the route tells its caller nothing about who has one. A manager grants at most its own role.
 */
export async function inviteMember(
  deps: Deps,
  audit: AuditRequest,
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
  const entry = invitationEntry(deps, audit, 'invitation.sent', org.id, input.email, [
    { path: 'role', from: null, to: input.role },
  ]);
  const written = await putInvitation(deps.db, stored, auditWrites(deps.db.table, entry));
  if (written.outcome === 'conflict') throw tooBusy();
  if (written.outcome === 'failed') throw new Error('storing an invitation: a write beside it refused');
  return invitationView(stored);
}

const live = (deps: Deps) => (stored: StoredInvitation) => stored.expiresAt * 1000 > deps.clock.now();

/** The caller's pending invitations, newest first (TTL deletes late: expired ones are left out). */
export async function listInvitations(deps: Deps, user: User): Promise<Invitation[]> {
  const stored = await invitationsOf(deps.db, user.email);
  return stored
    .filter(live(deps))
    .sort((a, b) => b.createdAt.localeCompare(a.createdAt))
    .map(invitationView);
}

/**
 * The organization's pending invitations for its managers, newest first: expired ones left out
 * (TTL deletes late), and void ones too (the inviter is no longer a member, or no longer of a role
 * that may offer the invitation's), decided from the inviters' memberships read in one batch.
 */
export async function listOrganizationInvitations(
  deps: Deps,
  org: Organization,
): Promise<PendingInvitation[]> {
  const pending = (await invitationsOfOrganization(deps.db, org.id)).filter(live(deps));
  if (pending.length === 0) return [];
  const inviters = await memberships(deps.db, org.id, [
    ...new Set(pending.map((stored) => stored.invitedBy.userId)),
  ]);
  return pending
    .filter((stored) => stands(inviters.get(stored.invitedBy.userId), stored))
    .sort((a, b) => b.createdAt.localeCompare(a.createdAt))
    .map((stored) => ({
      email: stored.email,
      role: stored.role,
      invitedBy: { userId: stored.invitedBy.userId, email: stored.invitedBy.email },
      createdAt: stored.createdAt,
      expiresAt: new Date(stored.expiresAt * 1000).toISOString(),
    }));
}

/**
 * Revokes the organization's invitation of `email`. A manager revokes only invitations of a role it
 * may grant (an admin not an owner's: 403, as for removing an owner). Revoking none is no error
 * (as declining): a resent Delete whose first answer was lost finds none either.
 */
export async function revokeInvitation(
  deps: Deps,
  audit: AuditRequest,
  org: Organization,
  actor: MemberActor,
  email: string,
): Promise<void> {
  if (actor.kind !== 'member') throw new Error('only members of a platform organization revoke invitations');
  const grantable = ROLES.filter((role) => mayManageRank(actor.role, role));
  const entry = invitationEntry(deps, audit, 'invitation.revoked', org.id, email);
  const outcome = await revokeStored(deps.db, org.id, email, grantable, auditWrites(deps.db.table, entry));
  if (outcome === 'outranked') throw fail('forbidden', `An ${actor.role} cannot revoke this invitation`);
  if (outcome === 'conflict') throw tooBusy();
}

/**
 * Accepts the caller's invitation to `organizationId`: it becomes a member with the invited role,
 * if the inviter still stands (a member of a role that may offer it, checked in the accepting
 * transaction). A void invitation is answered as none (404) and deleted.
 */
export async function acceptInvitation(
  deps: Deps,
  audit: AuditRequest,
  user: User,
  organizationId: string,
): Promise<Member> {
  const stored = await readInvitation(deps.db, user.email, organizationId);
  if (!stored || !live(deps)(stored)) throw noInvitation();
  if (stored.invitedBy.userId === user.id) return acceptOwnInvitation(deps, stored);
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
    rolesOffering(stored.role),
    auditWrites(
      deps.db.table,
      invitationEntry(deps, audit, 'invitation.accepted', organizationId, user.email, [
        { path: 'role', from: null, to: stored.role },
        { path: 'invitedBy', from: null, to: stored.invitedBy.email },
      ]),
    ),
  );
  if (outcome === 'accepted') return member;
  if (outcome === 'conflict') throw tooBusy();
  if (outcome === 'gone') throw noInvitation();
  if (outcome === 'inviterGone') {
    await deleteInvitationAsRead(deps.db, stored);
    throw noInvitation();
  }
  await deleteInvitation(deps.db, user.email, organizationId);
  if (outcome === 'organizationGone') throw fail('notFound', 'The organization no longer exists');
  throw fail('alreadyMember', 'You are already a member of this organization');
}

/**
 * An inviter who invited its own address: still a member, it is one already (409); gone, its
 * invitation is void like any other whose inviter left (404). Either way it is deleted.
 */
async function acceptOwnInvitation(deps: Deps, stored: StoredInvitation): Promise<never> {
  const current = await readMember(deps.db, stored.organizationId, stored.invitedBy.userId);
  await deleteInvitationAsRead(deps.db, stored);
  if (!current) throw noInvitation();
  throw fail('alreadyMember', 'You are already a member of this organization');
}

/**
 * Declines (deletes) the caller's invitation to `organizationId`; declining none is no error and
 * records nothing.
 */
export async function declineInvitation(
  deps: Deps,
  audit: AuditRequest,
  user: User,
  organizationId: string,
): Promise<void> {
  const entry = invitationEntry(deps, audit, 'invitation.declined', organizationId, user.email);
  const outcome = await deleteInvitation(
    deps.db,
    user.email,
    organizationId,
    auditWrites(deps.db.table, entry),
  );
  if (outcome === 'conflict') throw tooBusy();
}

/** An invitation's entry: its organization's trail, the address as target. */
const invitationEntry = (
  deps: Deps,
  audit: AuditRequest,
  action: 'invitation.sent' | 'invitation.revoked' | 'invitation.accepted' | 'invitation.declined',
  organizationId: string,
  email: string,
  changes?: AuditChange[],
) =>
  changeEntry(deps, audit, action, {
    organizationId,
    targetId: email,
    targetLabel: email,
    ...(changes ? { changes } : {}),
  });
