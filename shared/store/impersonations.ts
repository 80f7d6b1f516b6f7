import { GetCommand } from '@aws-sdk/lib-dynamodb';
import type { SessionRecord } from '../sessions/session.ts';
import { auditWrites, type StoredAuditEntry } from './audit.ts';
import type { Item } from './batch.ts';
import type { Db } from './db.ts';
import { keys } from './keys.ts';
import { sessionItem } from './sessions.ts';
import { transactWrite } from './transact.ts';

/** An impersonation (SPEC §3.3) as stored; shared/tenancy/impersonation.ts reads it. */
export interface StoredImpersonation {
  id: string;
  applicationId: string;
  userId: string;
  actorId: string;
  actorEmail: string;
  reason: string;
  startedAt: string;
  /**
   * ISO time the impersonation lapses: not `expiresAt`, the table's TTL attribute, so the record
   * outlives its session (an end is idempotent, and the trail names it).
   */
  lapsesAt: string;
  sessionId: string;
  /** The one token it issued (never refreshed): only that token ends it. */
  jti: string;
}

/** One strongly consistent GetItem of a user's profile item (its scope says which application). */
export async function readUserProfile(db: Db, userId: string): Promise<Item | undefined> {
  const { Item } = await db.client.send(
    new GetCommand({ TableName: db.table, Key: keys.user(userId), ConsistentRead: true }),
  );
  return Item;
}

/** One strongly consistent GetItem: an end sees the start it follows. */
export async function readImpersonation(db: Db, impersonationId: string): Promise<Item | undefined> {
  const { Item } = await db.client.send(
    new GetCommand({ TableName: db.table, Key: keys.impersonation(impersonationId), ConsistentRead: true }),
  );
  return Item;
}

// The impersonated user must still be one of the application's users, not disabled (issue 8: a
// disabled user gets no session), and the application must exist.
const userOfApplication =
  'attribute_exists(pk) AND #scope = :application AND attribute_not_exists(disabledAt)';
const applicationExists = 'attribute_exists(pk)';
const newItem = 'attribute_not_exists(pk)';
// An impersonation ends once: a second end changes nothing and writes no second trail entry.
const notEnded = 'attribute_exists(pk) AND attribute_not_exists(endedAt)';

export type StartOutcome = 'started' | 'missing' | 'disabled' | 'conflict';

/**
 * Starts an impersonation in ONE TransactWriteItems (issue 8): the user's session, the record and
 * the trail's `impersonation.started` entry are written together or not at all. `missing`: the
 * user left the application, or the application is gone; `disabled`: the user is disabled.
 */
export async function startImpersonation(
  db: Db,
  start: { impersonation: StoredImpersonation; session: SessionRecord; audit: StoredAuditEntry },
): Promise<StartOutcome> {
  const { impersonation, session, audit } = start;
  const written = await transactWrite(db, [
    {
      ConditionCheck: {
        TableName: db.table,
        Key: keys.user(impersonation.userId),
        ConditionExpression: userOfApplication,
        ExpressionAttributeNames: { '#scope': 'scope' },
        ExpressionAttributeValues: { ':application': impersonation.applicationId },
        ReturnValuesOnConditionCheckFailure: 'ALL_OLD',
      },
    },
    {
      ConditionCheck: {
        TableName: db.table,
        Key: keys.application(impersonation.applicationId),
        ConditionExpression: applicationExists,
      },
    },
    { Put: { TableName: db.table, Item: sessionItem(session), ConditionExpression: newItem } },
    {
      Put: {
        TableName: db.table,
        Item: { ...keys.impersonation(impersonation.id), type: 'impersonation', ...impersonation },
        ConditionExpression: newItem,
      },
    },
    ...auditWrites(db.table, audit),
  ]);
  if (written.outcome === 'written') return 'started';
  if (written.outcome === 'conflict') return 'conflict';
  const user = written.current[0];
  if (
    written.failed.includes(0) &&
    user?.scope === impersonation.applicationId &&
    user.disabledAt !== undefined
  ) {
    return 'disabled';
  }
  if (written.failed.some((index) => index < 2)) return 'missing';
  throw new Error('a new session, impersonation or audit id collided with a stored one');
}

export type EndOutcome =
  | { outcome: 'ended' }
  | { outcome: 'alreadyEnded'; item: Item }
  | { outcome: 'conflict' };

/**
 * Ends an impersonation in ONE TransactWriteItems (SPEC §3.3): `endedAt` set, its session deleted
 * and the trail's `impersonation.ended` entry written together. Ended already (a concurrent end
 * won): nothing written, and the record as it is.
 */
export async function endImpersonation(
  db: Db,
  end: { impersonation: StoredImpersonation; endedAt: string; audit: StoredAuditEntry },
): Promise<EndOutcome> {
  const { impersonation, endedAt, audit } = end;
  const written = await transactWrite(db, [
    {
      Update: {
        TableName: db.table,
        Key: keys.impersonation(impersonation.id),
        UpdateExpression: 'SET endedAt = :endedAt',
        ConditionExpression: notEnded,
        ExpressionAttributeValues: { ':endedAt': endedAt },
        ReturnValuesOnConditionCheckFailure: 'ALL_OLD',
      },
    },
    { Delete: { TableName: db.table, Key: keys.session(impersonation.userId, impersonation.sessionId) } },
    ...auditWrites(db.table, audit),
  ]);
  if (written.outcome === 'written') return { outcome: 'ended' };
  if (written.outcome === 'conflict') return written;
  const current = written.current[0];
  if (written.failed.includes(0) && current) return { outcome: 'alreadyEnded', item: current };
  throw new Error(`ending ${impersonation.id} failed a condition it cannot fail`);
}
