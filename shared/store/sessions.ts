import { DeleteCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import type { SessionRecord } from '../sessions/session.ts';
import { deleteItems, type Item } from './batch.ts';
import type { Db } from './db.ts';
import { conditionFailureItem, isConditionFailure } from './errors.ts';
import { queryAll } from './items.ts';
import { keys } from './keys.ts';

/** The stored session; `expiresAt` is also the TTL attribute. */
export const sessionItem = (session: SessionRecord) => ({
  ...keys.session(session.userId, session.id),
  type: 'session',
  ...session,
});

// SPEC §3.2: a refresh replaces the token the record holds, so the old token stops working and of
// two refreshes of the same token only one wins.
const holdsReadToken = 'jti = :old';

/** `rotated`; `stale`: the record no longer holds the token read (refreshed, or deleted). */
export type RotateOutcome = { outcome: 'rotated' } | { outcome: 'stale' };

/** Moves a session to a new token id and expiry. */
export async function rotateSessionToken(
  db: Db,
  change: { session: SessionRecord; jti: string; expiresAt: number },
): Promise<RotateOutcome> {
  const { session } = change;
  try {
    await db.client.send(
      new UpdateCommand({
        TableName: db.table,
        Key: keys.session(session.userId, session.id),
        UpdateExpression: 'SET jti = :jti, expiresAt = :expiresAt',
        ConditionExpression: holdsReadToken,
        ExpressionAttributeValues: {
          ':jti': change.jti,
          ':expiresAt': change.expiresAt,
          ':old': session.jti,
        },
        ReturnValuesOnConditionCheckFailure: 'ALL_OLD',
      }),
    );
    return { outcome: 'rotated' };
  } catch (error) {
    if (!isConditionFailure(error)) throw error;
    // An SDK retry of our own update that had landed (its answer lost) finds our jti: rotated.
    return conditionFailureItem(error)?.jti === change.jti ? { outcome: 'rotated' } : { outcome: 'stale' };
  }
}

/** Every session item of a user (expired ones included: TTL deletes late), strongly consistent. */
export async function readSessions(db: Db, userId: string): Promise<Item[]> {
  return queryAll(db, {
    KeyConditionExpression: 'pk = :pk AND begins_with(sk, :prefix)',
    ExpressionAttributeValues: { ':pk': keys.user(userId).pk, ':prefix': keys.sessionPrefix },
    ConsistentRead: true,
  });
}

/** Deletes sessions of one user; an id that names none deletes nothing. */
export const deleteSessions = (db: Db, userId: string, sessionIds: string[]): Promise<void> =>
  deleteItems(
    db,
    sessionIds.map((id) => keys.session(userId, id)),
  );

/** One DeleteItem in the user's own partition: another user's session id cannot be named. */
export async function deleteSession(db: Db, userId: string, sessionId: string): Promise<void> {
  await db.client.send(new DeleteCommand({ TableName: db.table, Key: keys.session(userId, sessionId) }));
}
