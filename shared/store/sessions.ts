import { DeleteCommand, GetCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import * as z from 'zod/mini';
import { deleteItems, type Item } from './batch.ts';
import type { Db } from './db.ts';
import { decoder } from './decode.ts';
import { conditionFailureItem, isConditionFailure, type TransactItem } from './errors.ts';
import { queryAll } from './items.ts';
import { keys } from './keys.ts';
import type { Read } from './reads.ts';
import { type SessionCountChange, sessionCountWrites } from './statistics.ts';
import { transactWrite } from './transact.ts';

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

/**
 * `rotated`; `stale`: the record no longer holds the token read (refreshed, or deleted); `conflict`:
 * DynamoDB kept cancelling the counted rotation for concurrent writes, nothing written.
 */
export type RotateOutcome = { outcome: 'rotated' } | { outcome: 'stale' } | { outcome: 'conflict' };

/**
 * Moves a session to a new token id and expiry. With `countedIn`, the session's statistics count
 * moves with it (from the minute it was counted in, if any, to `countedIn`) in the same
 * TransactWriteItems, so a refreshed session is always counted once, under its last issue.
 */
export async function rotateSessionToken(
  db: Db,
  change: { session: SessionRecord; jti: string; expiresAt: number; countedIn?: string },
): Promise<RotateOutcome> {
  const { session, countedIn } = change;
  const moves: SessionCountChange[] =
    countedIn === undefined
      ? []
      : [
          ...(session.countedIn ? [{ countedIn: session.countedIn, delta: -1 as const }] : []),
          { countedIn, delta: 1 },
        ];
  const counts = sessionCountWrites(db.table, session.scope, moves);
  const update = {
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
    ReturnValuesOnConditionCheckFailure: 'ALL_OLD' as const,
  };
  // An SDK retry of our own update that had landed (its answer lost) finds our jti: rotated.
  const ours = (item: Item | undefined): RotateOutcome =>
    item?.jti === change.jti ? { outcome: 'rotated' } : { outcome: 'stale' };
  if (counts.length > 0) {
    const written = await transactWrite(db, [{ Update: update }, ...counts]);
    if (written.outcome === 'failed') return ours(written.current[0]);
    return written.outcome === 'written' ? { outcome: 'rotated' } : written;
  }
  try {
    await db.client.send(new UpdateCommand(update));
    return { outcome: 'rotated' };
  } catch (error) {
    if (!isConditionFailure(error)) throw error;
    return ours(conditionFailureItem(error));
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

/**
 * `ended`; `changed`: one of them was refreshed or deleted since it was read (the whole transaction
 * was cancelled, or, past the first chunk, the rest of it): read them again; `conflict`: DynamoDB
 * kept cancelling it for concurrent writes, nothing more written.
 */
export type EndOutcome = { outcome: 'ended' } | { outcome: 'changed' } | { outcome: 'conflict' };

/** TransactWriteItems takes at most 100 items: session Deletes plus one counter Update per UTC day. */
const TRANSACTION_ITEMS = 100;

const dayOf = (session: SessionRecord) => session.countedIn?.slice(0, 10);

/**
 * The sessions in chunks of one transaction each: a chunk holds as many Deletes as 100 items leave
 * beside the counter Updates of the distinct days they touch (sorted by day, so days stay together).
 */
function transactionChunks(sessions: readonly SessionRecord[]): SessionRecord[][] {
  const sorted = [...sessions].sort((a, b) => (a.countedIn ?? '').localeCompare(b.countedIn ?? ''));
  const chunks: SessionRecord[][] = [];
  let chunk: SessionRecord[] = [];
  let days = new Set<string>();
  for (const session of sorted) {
    const day = dayOf(session);
    const daysWith = day === undefined || days.has(day) ? days.size : days.size + 1;
    if (chunk.length > 0 && chunk.length + 1 + daysWith > TRANSACTION_ITEMS) {
      chunks.push(chunk);
      chunk = [];
      days = new Set();
    }
    chunk.push(session);
    if (day !== undefined) days.add(day);
  }
  if (chunk.length > 0) chunks.push(chunk);
  return chunks;
}

// The record is still the one read: its statistics count is still where the record says.
const unchangedSession = 'jti = :jti';

/**
 * Ends sessions of one user as read, each uncounted from the statistics in the same
 * TransactWriteItems as its Delete (conditioned on the record being unchanged since it was read),
 * as many to a transaction as its 100 items allow. Sessions no counter holds (platform sessions)
 * are deleted without a transaction. The caller passes only sessions whose count the statistics
 * still read (shared/sessions/manage.ts): a count of a day they no longer read needs no undoing.
 */
export async function endSessions(db: Db, sessions: readonly SessionRecord[]): Promise<EndOutcome> {
  const counted = sessions.filter((session) => session.countedIn !== undefined);
  if (counted.length === 0) {
    await deleteItems(
      db,
      sessions.map((session) => keys.session(session.userId, session.id)),
    );
    return { outcome: 'ended' };
  }
  for (const chunk of transactionChunks(sessions)) {
    const deletes: TransactItem[] = chunk.map((session) => ({
      Delete: {
        TableName: db.table,
        Key: keys.session(session.userId, session.id),
        ConditionExpression: unchangedSession,
        ExpressionAttributeValues: { ':jti': session.jti },
      },
    }));
    const uncounts = chunk.flatMap((session) =>
      session.countedIn ? [{ countedIn: session.countedIn, delta: -1 as const }] : [],
    );
    // A user's sessions share one scope: its application's counters.
    const scope = chunk[0]?.scope ?? '';
    const written = await transactWrite(db, [...deletes, ...sessionCountWrites(db.table, scope, uncounts)]);
    if (written.outcome === 'failed') return { outcome: 'changed' };
    if (written.outcome === 'conflict') return written;
  }
  return { outcome: 'ended' };
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
