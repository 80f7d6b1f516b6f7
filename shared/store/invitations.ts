import { DeleteCommand, PutCommand } from '@aws-sdk/lib-dynamodb';
import * as z from 'zod/mini';
import type { Db } from './db.ts';
import { decoder } from './decode.ts';
import { conditionFailureItem, isConditionFailure, type TransactItem } from './errors.ts';
import { queryAll, readNow } from './items.ts';
import { keys } from './keys.ts';
import {
  type MemberRecord,
  memberRead,
  type NewMember,
  newMemberWrites,
  roleIn,
  StoredRole,
} from './organizations.ts';
import { readMany } from './reads.ts';
import { type TransactOutcome, transactWrite } from './transact.ts';

type Role = z.infer<typeof StoredRole>;

const StoredInvitation = z.object({
  organizationId: z.string(),
  /** The organization's name when invited, so the invitee's list needs no other read. */
  organizationName: z.string(),
  email: z.string(),
  role: StoredRole,
  invitedBy: z.object({ userId: z.string(), email: z.string() }),
  createdAt: z.string(),
  /** Epoch seconds; also the TTL attribute. */
  expiresAt: z.number(),
});
/** The stored invitation (shared/tenancy/invitations.ts reads it). */
export type StoredInvitation = z.infer<typeof StoredInvitation>;
const invitationRecord = decoder('invitation', StoredInvitation);

/**
 * Stores the invitation, replacing an earlier one of the same address to the same organization,
 * listed on gsi1 under its organization. One PutItem; with `extra` writes (an audit entry), one
 * TransactWriteItems of the Put and them.
 */
export async function putInvitation(
  db: Db,
  invitation: StoredInvitation,
  extra: TransactItem[] = [],
): Promise<TransactOutcome> {
  const put = {
    TableName: db.table,
    Item: {
      ...keys.invitation(invitation.email, invitation.organizationId),
      ...keys.organizationInvitation(invitation.organizationId, invitation.email),
      type: 'invitation',
      ...invitation,
    },
  };
  if (extra.length > 0) return transactWrite(db, [{ Put: put }, ...extra]);
  await db.client.send(new PutCommand(put));
  return { outcome: 'written' };
}

/**
 * The invitations of an organization (gsi1, so eventually consistent: one sent a moment ago may be
 * missing for about a second; expired and void ones included: the caller filters). Invitations
 * stored before the index attributes existed are not listed; they expire within 7 days.
 */
export async function invitationsOfOrganization(db: Db, organizationId: string): Promise<StoredInvitation[]> {
  const items = await queryAll(db, {
    IndexName: 'gsi1',
    KeyConditionExpression: 'gsi1pk = :org',
    ExpressionAttributeValues: { ':org': keys.organizationInvitation(organizationId, '').gsi1pk },
  });
  return items.map(invitationRecord);
}

/**
 * The membership of each of `userIds` in the organization (absent: not a member), strongly
 * consistent, 100 to a BatchGetItem.
 */
export async function memberships(
  db: Db,
  organizationId: string,
  userIds: string[],
): Promise<Map<string, MemberRecord>> {
  const found = await readMany(
    db,
    userIds.map((userId) => memberRead(organizationId, userId)),
  );
  return new Map(found.map((membership) => [membership.userId, membership]));
}

/** The invitations of an address (strongly consistent; expired ones included: the caller filters). */
export async function invitationsOf(db: Db, email: string): Promise<StoredInvitation[]> {
  const items = await queryAll(db, {
    KeyConditionExpression: 'pk = :address',
    ExpressionAttributeValues: { ':address': keys.invitation(email, '').pk },
    ConsistentRead: true,
  });
  return items.map(invitationRecord);
}

/** One strongly consistent GetItem. */
export async function readInvitation(
  db: Db,
  email: string,
  organizationId: string,
): Promise<StoredInvitation | undefined> {
  const item = await readNow(db, keys.invitation(email, organizationId));
  return item && invitationRecord(item);
}

/**
 * Deletes the invitation, if any. With `extra` writes (an audit entry), one TransactWriteItems
 * conditioned on the invitation existing: `none` when it did not, nothing written.
 */
export async function deleteInvitation(
  db: Db,
  email: string,
  organizationId: string,
  extra: TransactItem[] = [],
): Promise<'deleted' | 'none' | 'conflict'> {
  const Key = keys.invitation(email, organizationId);
  if (extra.length === 0) {
    await db.client.send(new DeleteCommand({ TableName: db.table, Key }));
    return 'deleted';
  }
  const written = await transactWrite(db, [
    { Delete: { TableName: db.table, Key, ConditionExpression: 'attribute_exists(pk)' } },
    ...extra,
  ]);
  if (written.outcome === 'failed') return 'none';
  return written.outcome === 'written' ? 'deleted' : 'conflict';
}

/**
 * Deletes the invitation that was read, unless it was replaced since (`createdAt`): a void
 * invitation goes, a new one sent meanwhile by someone who may send it stays.
 */
export async function deleteInvitationAsRead(db: Db, invitation: StoredInvitation): Promise<void> {
  try {
    await db.client.send(
      new DeleteCommand({
        TableName: db.table,
        Key: keys.invitation(invitation.email, invitation.organizationId),
        ConditionExpression: 'createdAt = :created',
        ExpressionAttributeValues: { ':created': invitation.createdAt },
      }),
    );
  } catch (error) {
    if (!isConditionFailure(error)) throw error;
  }
}

/** `none`: no invitation of that address (a resent Delete that had landed finds none too). */
export type RevokeOutcome = 'revoked' | 'none' | 'outranked' | 'conflict';

/**
 * Deletes an organization's invitation of `email` while its role is one of `roles` (those the
 * revoking manager may grant): `outranked` otherwise, nothing deleted. One DeleteItem; with `extra`
 * writes (an audit entry), one TransactWriteItems of the Delete and them, written only if the
 * Delete is.
 */
export async function revokeInvitation(
  db: Db,
  organizationId: string,
  email: string,
  roles: Role[],
  extra: TransactItem[] = [],
): Promise<RevokeOutcome> {
  const condition = roleIn(roles);
  const remove = {
    TableName: db.table,
    Key: keys.invitation(email, organizationId),
    ConditionExpression: `attribute_exists(pk) AND ${condition.expression}`,
    ExpressionAttributeNames: condition.names,
    ExpressionAttributeValues: condition.values,
    ReturnValuesOnConditionCheckFailure: 'ALL_OLD' as const,
  };
  if (extra.length > 0) {
    const written = await transactWrite(db, [{ Delete: remove }, ...extra]);
    if (written.outcome !== 'failed') return written.outcome === 'written' ? 'revoked' : 'conflict';
    if (!written.failed.includes(0)) throw new Error(`revoking an invitation: a write beside it refused`);
    return written.current[0] ? 'outranked' : 'none';
  }
  try {
    await db.client.send(new DeleteCommand(remove));
    return 'revoked';
  } catch (error) {
    if (!isConditionFailure(error)) throw error;
    return conditionFailureItem(error) ? 'outranked' : 'none';
  }
}

/** The loss of rights that voids an invitation of `role` sent before it. */
const lossOf = (role: Role) => (role === 'owner' ? 'ownerLostAt' : 'managerLostAt');

/** The membership was made, and has kept the rights `role` needs, since `:invited`. */
const heldSince = (role: Role) =>
  `(attribute_not_exists(createdAt) OR createdAt <= :invited) AND (attribute_not_exists(${lossOf(role)}) OR ${lossOf(role)} <= :invited)`;

/**
 * Whether a membership item (as read) has held what an invitation of `role` sent at `invitedAt`
 * needs since then: the read twin of `heldSince`, for the managers' list.
 */
export function heldSinceInvited(membership: MemberRecord, role: Role, invitedAt: string): boolean {
  const made = membership.createdAt;
  const lost = membership[lossOf(role)];
  return made <= invitedAt && (lost === undefined || lost <= invitedAt);
}

/** `inviterGone`: the inviter is no longer a member, or no longer of a role that may offer the invitation's. */
export type AcceptOutcome =
  | 'accepted'
  | 'gone'
  | 'inviterGone'
  | 'organizationGone'
  | 'alreadyMember'
  | 'conflict';

/**
 * Turns the invitation that was read into a membership in ONE TransactWriteItems: the invitation is
 * deleted only while it is still that one (`createdAt`) and unexpired; the inviter's membership
 * must still exist with one of `inviterRoles` (a ConditionCheck, so a removal or demotion that
 * commits first voids the accept: DynamoDB serializes transactions on the same item); the
 * organization must exist, and the invitee's membership must not. `extra` writes (an audit entry)
 * ride in the same transaction. The inviter must not be the invitee: one transaction cannot name
 * one item twice.
 */
export async function acceptInvitation(
  db: Db,
  invitation: StoredInvitation,
  member: NewMember,
  nowSeconds: number,
  inviterRoles: Role[],
  extra: TransactItem[] = [],
): Promise<AcceptOutcome> {
  if (invitation.invitedBy.userId === member.userId)
    throw new Error('an inviter accepting its own invitation');
  const inviter = keys.member(invitation.organizationId, invitation.invitedBy.userId);
  const stillMayInvite = roleIn(inviterRoles);
  // Held since the invitation: a membership made again after it, or one that lost the rights it
  // needs after it (shared/store/organizations.ts `rightsLost`), voids it even if promoted back.
  const since = heldSince(invitation.role);
  const written = await transactWrite(db, [
    {
      Delete: {
        TableName: db.table,
        Key: keys.invitation(invitation.email, invitation.organizationId),
        ConditionExpression: 'attribute_exists(pk) AND createdAt = :created AND expiresAt > :now',
        ExpressionAttributeValues: { ':created': invitation.createdAt, ':now': nowSeconds },
      },
    },
    {
      ConditionCheck: {
        TableName: db.table,
        Key: { pk: inviter.pk, sk: inviter.sk },
        ConditionExpression: `attribute_exists(pk) AND ${stillMayInvite.expression} AND ${since}`,
        ExpressionAttributeNames: stillMayInvite.names,
        ExpressionAttributeValues: { ...stillMayInvite.values, ':invited': invitation.createdAt },
      },
    },
    ...newMemberWrites(db.table, invitation.organizationId, member),
    ...extra,
  ]);
  if (written.outcome === 'written') return 'accepted';
  if (written.outcome === 'conflict') return 'conflict';
  if (written.failed.includes(0)) return 'gone';
  // A deleted organization took its memberships with it: the inviter's check fails too.
  if (written.failed.includes(2)) return 'organizationGone';
  if (written.failed.includes(1)) return 'inviterGone';
  if (written.failed.includes(3)) return 'alreadyMember';
  throw new Error('accepting an invitation: a write beside it refused');
}
