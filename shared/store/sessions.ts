import { DeleteCommand, GetCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import * as z from 'zod/mini';
import { deleteItems } from './batch.ts';
import type { Db } from './db.ts';
import { decoder } from './decode.ts';
import { conditionFailureItem, isConditionFailure } from './errors.ts';
import { queryAll } from './items.ts';
import { keys } from './keys.ts';
import type { Read } from './reads.ts';

const SessionRecord = z.object({
  id: z.string(),
  userId: z.string(),
  /** `platform` or the application id (the token's `aud`). */
  scope: z.string(),
  jti: z.string(),
  createdAt: z.string(),
  /** Epoch seconds; also the TTL attribute. */
  expiresAt: z.number(),
  userAgent: z._default(z.string(), ''),
  ip: z._default(z.string(), ''),
  /**
   * The UTC minute (`YYYY-MM-DDTHH:MM`) of the issue or refresh the application's active-session
   * counters count this session under (shared/tenancy/statistics.ts); absent: not counted (platform
   * sessions, and sessions issued before the counters existed until their next refresh).
   */
  countedIn: z.optional(z.string()),
  /**
   * Only on a session an impersonation started (docs/data-model.md, "Impersonation and audit"): who
   * acts and why, so resolving it needs no other read; it cannot be refreshed (docs/api.md, Impersonation).
   */
  impersonation: z.optional(
    z.object({
      id: z.string(),
      actorId: z.string(),
      actorEmail: z.string(),
      reason: z.string(),
      startedAt: z.string(),
    }),
  ),
});
/** A server-side session. The token is valid only while this record exists and holds its `jti`. */
export type SessionRecord = z.infer<typeof SessionRecord>;
const sessionRecord = decoder('session', SessionRecord);

/** The read of one session of a user, for a batch. */
export const sessionRead = (userId: string, sessionId: string): Read<SessionRecord> => ({
  key: keys.session(userId, sessionId),
  decode: sessionRecord,
});

/** The stored session; `expiresAt` is also the TTL attribute. */
export const sessionItem = (session: SessionRecord) => ({
  ...keys.session(session.userId, session.id),
  type: 'session',
  ...session,
});

// A refresh replaces the token the record holds (docs/security.md, "Session tokens"), so the old token stops
// working and of two refreshes of the same token only one wins.
const holdsReadToken = 'jti = :old';

/** `rotated`; `stale`: the record no longer holds the token read (refreshed, or deleted). */
export type RotateOutcome = { outcome: 'rotated' } | { outcome: 'stale' };

/**
 * Moves a session to a new token id and expiry, and with `countedIn` to the minute the statistics
 * count it under (the aggregator moves its count from the old minute: shared/tenancy/statistics-stream.ts).
 */
export async function rotateSessionToken(
  db: Db,
  change: { session: SessionRecord; jti: string; expiresAt: number; countedIn?: string },
): Promise<RotateOutcome> {
  const { session, countedIn } = change;
  try {
    await db.client.send(
      new UpdateCommand({
        TableName: db.table,
        Key: keys.session(session.userId, session.id),
        UpdateExpression: `SET jti = :jti, expiresAt = :expiresAt${countedIn === undefined ? '' : ', countedIn = :countedIn'}`,
        ConditionExpression: holdsReadToken,
        ExpressionAttributeValues: {
          ':jti': change.jti,
          ':expiresAt': change.expiresAt,
          ':old': session.jti,
          ...(countedIn === undefined ? {} : { ':countedIn': countedIn }),
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
export async function readSessions(db: Db, userId: string): Promise<SessionRecord[]> {
  const items = await queryAll(db, {
    KeyConditionExpression: 'pk = :pk AND begins_with(sk, :prefix)',
    ExpressionAttributeValues: { ':pk': keys.user(userId).pk, ':prefix': keys.sessionPrefix },
    ConsistentRead: true,
  });
  return items.map(sessionRecord);
}

/** One session of a user, strongly consistent (expired ones included: TTL deletes late). */
export async function readSession(
  db: Db,
  userId: string,
  sessionId: string,
): Promise<SessionRecord | undefined> {
  const { Item } = await db.client.send(
    new GetCommand({ TableName: db.table, Key: keys.session(userId, sessionId), ConsistentRead: true }),
  );
  return Item && sessionRecord(Item);
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
