import { GetCommand } from '@aws-sdk/lib-dynamodb';
import * as z from 'zod/mini';
import { auditWrites, type StoredAuditEntry } from './audit.ts';
import type { Item } from './batch.ts';
import type { Db } from './db.ts';
import { decoder } from './decode.ts';
import type { TransactItem } from './errors.ts';
import { queryAll } from './items.ts';
import { keys } from './keys.ts';
import { roleIn } from './organizations.ts';
import { type Read, readMany } from './reads.ts';
import { type SessionRecord, sessionItem } from './sessions.ts';
import { transactWrite } from './transact.ts';

const StoredImpersonation = z.object({
  id: z.string(),
  applicationId: z.string(),
  userId: z.string(),
  actorId: z.string(),
  actorEmail: z.string(),
  reason: z.string(),
  startedAt: z.string(),
  /**
   * ISO time the impersonation lapses: not `expiresAt`, the table's TTL attribute, so the record
   * outlives its session (an end is idempotent, and the trail names it).
   */
  lapsesAt: z.string(),
  sessionId: z.string(),
  /** The one token it issued (never refreshed): only that token ends it. */
  jti: z.string(),
  /**
   * The organization that owns the application, whose partition lists it while it runs (absent on
   * impersonations started before they were listed: those are never listed).
   */
  organizationId: z.optional(z.string()),
  /** Set once, by whatever ended it. */
  endedAt: z.optional(z.string()),
});
/**
 * An impersonation (docs/data-model.md, "Impersonation and audit") as stored;
 * shared/tenancy/impersonation.ts reads it.
 */
export type StoredImpersonation = z.infer<typeof StoredImpersonation>;
const impersonationRecord = decoder('impersonation', StoredImpersonation);
const impersonationRead = (impersonationId: string): Read<StoredImpersonation> => ({
  key: keys.impersonation(impersonationId),
  decode: impersonationRecord,
});
/** A running impersonation's entry in its organization's list: what the list is read for. */
const listedImpersonation = decoder('running impersonation', z.object({ impersonationId: z.string() }));

/** One strongly consistent GetItem: an end sees the start it follows. */
export async function readImpersonation(
  db: Db,
  impersonationId: string,
): Promise<StoredImpersonation | undefined> {
  const { Item } = await db.client.send(
    new GetCommand({ TableName: db.table, Key: keys.impersonation(impersonationId), ConsistentRead: true }),
  );
  return Item && impersonationRecord(Item);
}

// The impersonated user must still be one of the application's users, not disabled (a
// disabled user gets no session: docs/api.md, Impersonation), and the application must exist.
const userOfApplication =
  'attribute_exists(pk) AND #scope = :application AND attribute_not_exists(disabledAt)';
const applicationExists = 'attribute_exists(pk)';
const newItem = 'attribute_not_exists(pk)';
// An impersonation ends once: a second end changes nothing and writes no second trail entry.
const notEnded = 'attribute_exists(pk) AND attribute_not_exists(endedAt)';

export type StartOutcome = 'started' | 'missing' | 'disabled' | 'notMember' | 'notAllowed' | 'conflict';

/** The entry listing a running impersonation in its organization's partition (keys.liveImpersonation). */
function liveEntry(impersonation: StoredImpersonation & { organizationId: string }): Item {
  return {
    ...keys.liveImpersonation(
      impersonation.organizationId,
      impersonation.actorId,
      impersonation.lapsesAt,
      impersonation.id,
    ),
    type: 'liveImpersonation',
    impersonationId: impersonation.id,
    applicationId: impersonation.applicationId,
    actorId: impersonation.actorId,
    lapsesAt: impersonation.lapsesAt,
    // Only a list of what runs: it may go once its impersonation has lapsed (TTL, best-effort).
    expiresAt: Math.ceil(Date.parse(impersonation.lapsesAt) / 1000),
  };
}

/**
 * Starts an impersonation in ONE TransactWriteItems (docs/api.md, Impersonation): the user's session, the record, its
 * entry in the organization's list of running impersonations and the trail's
 * `impersonation.started` entry are written together or not at all. The support user's membership
 * must still hold one of `roles` (the matrix's `impersonation.start`), and its `impersonationStarts`
 * moves: a removal or demotion that read the list before this start then fails its condition and
 * reads it again, and one that committed first fails this start (docs/data-model.md #I2). `missing`:
 * the user left the application, or the application is gone; `disabled`: the user is disabled;
 * `notMember`, `notAllowed`: the support user left the organization, or lost the role, meanwhile.
 */
export async function startImpersonation(
  db: Db,
  start: {
    impersonation: StoredImpersonation & { organizationId: string };
    session: SessionRecord;
    audit: StoredAuditEntry;
    roles: readonly string[];
  },
): Promise<StartOutcome> {
  const { impersonation, session, audit, roles } = start;
  const membership = keys.member(impersonation.organizationId, impersonation.actorId);
  const mayStart = roleIn(roles);
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
    {
      Update: {
        TableName: db.table,
        Key: { pk: membership.pk, sk: membership.sk },
        UpdateExpression: 'ADD impersonationStarts :one',
        ConditionExpression: mayStart.expression,
        ExpressionAttributeNames: mayStart.names,
        ExpressionAttributeValues: { ':one': 1, ...mayStart.values },
        ReturnValuesOnConditionCheckFailure: 'ALL_OLD',
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
    { Put: { TableName: db.table, Item: liveEntry(impersonation), ConditionExpression: newItem } },
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
  if (written.failed.includes(2)) return written.current[2] ? 'notAllowed' : 'notMember';
  throw new Error('a new session, impersonation or audit id collided with a stored one');
}

/**
 * The running impersonations of an organization's applications, read strongly consistent: its list
 * (keys.liveImpersonation) by `actorId` (one support user's, in any of its applications) or by
 * `applicationId` (anyone's, in one application), unlapsed at `now`; then their records, and only
 * those not ended. One Query, and one BatchGetItem per 100 found (none when none runs).
 */
export async function readLiveImpersonations(
  db: Db,
  organizationId: string,
  of: { actorId: string } | { applicationId: string },
  now: string,
): Promise<StoredImpersonation[]> {
  const partition = keys.organization(organizationId).pk;
  const prefix = keys.liveImpersonationPrefix;
  const listed =
    'actorId' in of
      ? await queryAll(db, {
          // The sort key ends with the lapse time and the id: from now on, the unlapsed ones.
          KeyConditionExpression: 'pk = :org AND sk BETWEEN :from AND :to',
          ExpressionAttributeValues: {
            ':org': partition,
            ':from': `${prefix}${of.actorId}#${now}`,
            ':to': `${prefix}${of.actorId}#~`,
          },
          ConsistentRead: true,
        })
      : await queryAll(db, {
          KeyConditionExpression: 'pk = :org AND begins_with(sk, :imp)',
          FilterExpression: 'applicationId = :app AND lapsesAt > :now',
          ExpressionAttributeValues: {
            ':org': partition,
            ':imp': prefix,
            ':app': of.applicationId,
            ':now': now,
          },
          ConsistentRead: true,
        });
  if (listed.length === 0) return [];
  const records = await readMany(
    db,
    listed.map((entry) => impersonationRead(listedImpersonation(entry).impersonationId)),
  );
  return records.filter((record) => record.endedAt === undefined);
}

/**
 * The writes that end `impersonation`, for its own transaction or the transaction of the change that
 * ends it: `endedAt` set unless already set (the record asked back on failure), its session deleted,
 * the trail's `impersonation.ended` entry. A record is kept; its list entry lapses on its own.
 */
export function impersonationEndWrites(
  table: string,
  end: { impersonation: StoredImpersonation; endedAt: string; audit: StoredAuditEntry },
): TransactItem[] {
  const { impersonation, endedAt, audit } = end;
  return [
    {
      Update: {
        TableName: table,
        Key: keys.impersonation(impersonation.id),
        UpdateExpression: 'SET endedAt = :endedAt',
        ConditionExpression: notEnded,
        ExpressionAttributeValues: { ':endedAt': endedAt },
        ReturnValuesOnConditionCheckFailure: 'ALL_OLD',
      },
    },
    { Delete: { TableName: table, Key: keys.session(impersonation.userId, impersonation.sessionId) } },
    ...auditWrites(table, audit),
  ];
}

export type EndOutcome =
  | { outcome: 'ended' }
  | { outcome: 'alreadyEnded'; record: StoredImpersonation }
  | { outcome: 'conflict' };

/**
 * Ends an impersonation in ONE TransactWriteItems (docs/api.md, Impersonation): `endedAt` set, its session deleted
 * and the trail's `impersonation.ended` entry written together. Ended already (a concurrent end
 * won): nothing written, and the record as it is.
 */
export async function endImpersonation(
  db: Db,
  end: { impersonation: StoredImpersonation; endedAt: string; audit: StoredAuditEntry },
): Promise<EndOutcome> {
  const written = await transactWrite(db, impersonationEndWrites(db.table, end));
  if (written.outcome === 'written') return { outcome: 'ended' };
  if (written.outcome === 'conflict') return written;
  const current = written.current[0];
  if (written.failed.includes(0) && current) {
    return { outcome: 'alreadyEnded', record: impersonationRecord(current) };
  }
  throw new Error(`ending ${end.impersonation.id} failed a condition it cannot fail`);
}
