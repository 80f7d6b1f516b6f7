import { DeleteCommand, PutCommand } from '@aws-sdk/lib-dynamodb';
import type { Item } from './batch.ts';
import type { Db } from './db.ts';
import { queryAll, readNow } from './items.ts';
import { keys } from './keys.ts';
import { type NewMember, newMemberWrites } from './organizations.ts';
import { transactWrite } from './transact.ts';

/** The stored invitation (shared/tenancy/invitations.ts reads it). */
export interface StoredInvitation {
  organizationId: string;
  /** The organization's name when invited, so the invitee's list needs no other read. */
  organizationName: string;
  email: string;
  role: 'owner' | 'admin' | 'member';
  invitedBy: { userId: string; email: string };
  createdAt: string;
  /** Epoch seconds; also the TTL attribute. */
  expiresAt: number;
}

/** Stores the invitation, replacing an earlier one of the same address to the same organization. */
export async function putInvitation(db: Db, invitation: StoredInvitation): Promise<void> {
  await db.client.send(
    new PutCommand({
      TableName: db.table,
      Item: {
        ...keys.invitation(invitation.email, invitation.organizationId),
        type: 'invitation',
        ...invitation,
      },
    }),
  );
}

/** The invitations of an address (strongly consistent; expired ones included: the caller filters). */
export async function invitationsOf(db: Db, email: string): Promise<Item[]> {
  return queryAll(db, {
    KeyConditionExpression: 'pk = :address',
    ExpressionAttributeValues: { ':address': keys.invitation(email, '').pk },
    ConsistentRead: true,
  });
}

/** One strongly consistent GetItem. */
export async function readInvitation(
  db: Db,
  email: string,
  organizationId: string,
): Promise<Item | undefined> {
  return readNow(db, keys.invitation(email, organizationId));
}

/** Deletes the invitation, if any. */
export async function deleteInvitation(db: Db, email: string, organizationId: string): Promise<void> {
  await db.client.send(
    new DeleteCommand({ TableName: db.table, Key: keys.invitation(email, organizationId) }),
  );
}

export type AcceptOutcome = 'accepted' | 'gone' | 'organizationGone' | 'alreadyMember' | 'conflict';

/**
 * Turns the invitation that was read into a membership in ONE TransactWriteItems: the invitation is
 * deleted only while it is still that one (`createdAt`) and unexpired, the organization must exist,
 * and the membership must not.
 */
export async function acceptInvitation(
  db: Db,
  invitation: StoredInvitation,
  member: NewMember,
  nowSeconds: number,
): Promise<AcceptOutcome> {
  const written = await transactWrite(db, [
    {
      Delete: {
        TableName: db.table,
        Key: keys.invitation(invitation.email, invitation.organizationId),
        ConditionExpression: 'attribute_exists(pk) AND createdAt = :created AND expiresAt > :now',
        ExpressionAttributeValues: { ':created': invitation.createdAt, ':now': nowSeconds },
      },
    },
    ...newMemberWrites(db.table, invitation.organizationId, member),
  ]);
  if (written.outcome === 'written') return 'accepted';
  if (written.outcome === 'conflict') return 'conflict';
  if (written.failed.includes(0)) return 'gone';
  if (written.failed.includes(1)) return 'organizationGone';
  return 'alreadyMember';
}
