import { QueryCommand, TransactWriteCommand } from '@aws-sdk/lib-dynamodb';
import * as z from 'zod/mini';
import type { Item } from './batch.ts';
import type { Db } from './db.ts';
import type { TransactItem } from './errors.ts';
import { keys } from './keys.ts';

const AuditValue = z.union([z.string(), z.number(), z.boolean(), z.array(z.string()), z.null()]);
/** A value before or after a change: a secret only as `'set'` or `'new secret'`, never itself. */
export type AuditValue = z.infer<typeof AuditValue>;

const AuditChange = z.object({ path: z.string(), from: AuditValue, to: AuditValue });
/** One changed field of a target: its path (`name`, `branding.primaryColor`, …), before and after. */
export type AuditChange = z.infer<typeof AuditChange>;

/** One change of a social sign-in setting (shared/tenancy/social-providers.ts lists them). */
export type SocialSignInChange = AuditChange;

/** Who acted, as stored: flat, so a filter names one attribute (`actorId`). */
interface StoredActor {
  /** Absent on entries written before keys and the service could act: a user. */
  actorKind?: 'user' | 'key' | 'service';
  /** The user's id, the key's id, or `service`. */
  actorId: string;
  /** A user's address. */
  actorEmail?: string;
  /** A key's first characters (`sk_AbCd`). */
  actorPrefix?: string;
}

interface AuditBase extends StoredActor {
  id: string;
  /** ISO time; with the id, the entry's sort key. */
  at: string;
  /**
   * The trail's owner: an organization's or an application's id. Absent on entries written before
   * organizations had trails: their application's.
   */
  trail?: string;
  applicationId?: string;
  organizationId?: string;
  /** The request that made the change: the TCP peer and its user agent (absent where none did). */
  ip?: string;
  userAgent?: string;
  /** Epoch seconds, the table's TTL attribute: only when the deployment sets a retention. */
  expiresAt?: number;
  /** What changed (every entry but impersonation ones, and social ones written before targets were kept). */
  targetType?: string;
  targetId?: string;
  targetLabel?: string;
}

/** An impersonation began or ended. */
export interface ImpersonationAuditEntry extends AuditBase {
  action: 'impersonation.started' | 'impersonation.ended';
  applicationId: string;
  /** The end user the event concerns. */
  userId: string;
  impersonationId: string;
  reason: string;
  /** What ended it (`impersonation.ended`; absent on entries written before causes were kept). */
  cause?: string;
}

/** The application's social sign-in changed: who can sign in as its users, and where codes go. */
export interface SocialSignInAuditEntry extends AuditBase {
  action: 'socialSignIn.changed';
  applicationId: string;
  changes: SocialSignInChange[];
}

/** Any other administrative change: what it touched and, for an update, each field before and after. */
export interface ChangeAuditEntry extends AuditBase {
  /** One of shared/tenancy/audit-actions.ts, which the domain checks. */
  action: string;
  trail: string;
  targetType: string;
  targetId: string;
  changes?: AuditChange[];
}

/** One event of a trail (shared/tenancy/audit.ts makes and reads it). */
export type StoredAuditEntry = ImpersonationAuditEntry | SocialSignInAuditEntry | ChangeAuditEntry;

const trailOf = (entry: StoredAuditEntry): string => {
  const trail = entry.trail ?? entry.applicationId;
  if (!trail) throw new Error(`audit entry ${entry.id} names no trail`);
  return trail;
};

/**
 * The write that appends `entry` to its trail, for the transaction of the change it records (never
 * on its own): append-only, an entry is only ever created, never over another, and no route updates
 * or deletes one (an application's trail goes only with the application: docs/data-model.md).
 */
export function auditWrites(table: string, entry: StoredAuditEntry): TransactItem[] {
  const trail = trailOf(entry);
  return [
    {
      Put: {
        TableName: table,
        Item: { ...keys.auditEntry(trail, entry.at, entry.id), type: 'auditEntry', trail, ...entry },
        ConditionExpression: 'attribute_not_exists(pk)',
      },
    },
  ];
}

/**
 * Appends an entry on its own, for a change made of many writes of its own (ending every session of
 * a user): written after them, so an entry never names a change that did not happen.
 */
export async function appendAudit(db: Db, entry: StoredAuditEntry): Promise<void> {
  await db.client.send(new TransactWriteCommand({ TransactItems: auditWrites(db.table, entry) }));
}

const AuditEntryRecord = z.object({
  id: z.string(),
  /** One of shared/tenancy/audit-actions.ts, or of another version: the reader checks. */
  action: z.string(),
  at: z.string(),
  trail: z.optional(z.string()),
  applicationId: z.optional(z.string()),
  organizationId: z.optional(z.string()),
  actorKind: z.optional(z.string()),
  actorId: z.string(),
  actorEmail: z.optional(z.string()),
  actorPrefix: z.optional(z.string()),
  ip: z.optional(z.string()),
  userAgent: z.optional(z.string()),
  targetType: z.optional(z.string()),
  targetId: z.optional(z.string()),
  targetLabel: z.optional(z.string()),
  changes: z.optional(z.array(AuditChange)),
  userId: z.optional(z.string()),
  impersonationId: z.optional(z.string()),
  reason: z.optional(z.string()),
  cause: z.optional(z.string()),
});
/**
 * An entry as a trail is read: every kind of `StoredAuditEntry`, written by this version or an
 * earlier one, in one shape whose fields the reader (shared/tenancy/audit.ts) checks.
 */
export type AuditEntryRecord = z.infer<typeof AuditEntryRecord>;

/**
 * An entry whose fields this version cannot read: one written by a newer version (an action, a
 * value of a shape not known here) or damaged. The trail's reader leaves it out and logs it, so one
 * such entry never fails a whole page (docs/api.md, Audit trail).
 */
export interface UnreadableAuditEntry {
  readonly unreadable: true;
  readonly action: string;
}

const auditEntryRecord = (item: Item): AuditEntryRecord | UnreadableAuditEntry => {
  const decoded = z.safeParse(AuditEntryRecord, item);
  return decoded.success ? decoded.data : { unreadable: true, action: String(item.action ?? '') };
};

/** What a reader of a trail asks for: newest first, after a cursor, within a time range, filtered. */
export interface AuditQuery {
  limit: number;
  /** Epoch seconds: an entry past its retention (`expiresAt`) is left out before TTL deletes it. */
  now: number;
  /** The sort key of the last entry of the previous page. */
  after?: string;
  /** ISO times, both included. */
  since?: string;
  until?: string;
  action?: string;
  /** A user's or a key's id, or `service`. */
  actor?: string;
  /** The id of what was changed (a member's user id, a key's id, …). */
  target?: string;
}

/** Query pages read for one answer at most: a filter that matches little then answers early, with a cursor. */
const MAX_READS = 5;
const ENTRY = 'ENTRY#';
// Sort keys are `ENTRY#<ISO time>#<id>`; ids are base64url, all below `~`.
const HIGHEST = '~';

/**
 * One page of a trail, newest first: a descending, strongly consistent Query of the trail's
 * partition, bounded by the time range in the key condition and filtered by action, actor and target.
 * `next` is the cursor of the following page, null when the trail has no more.
 */
export async function queryAuditTrail(
  db: Db,
  trail: string,
  query: AuditQuery,
): Promise<{ items: Array<AuditEntryRecord | UnreadableAuditEntry>; next: string | null }> {
  const low = `${ENTRY}${query.since ?? ''}`;
  const high = query.until ? `${ENTRY}${query.until}#${HIGHEST}` : `${ENTRY}${HIGHEST}`;
  const filters = ['(attribute_not_exists(expiresAt) OR expiresAt > :now)'];
  const values: Record<string, unknown> = {
    ':trail': keys.audit(trail),
    ':low': low,
    ':high': high,
    ':now': query.now,
  };
  if (query.action) {
    filters.push('#action = :action');
    values[':action'] = query.action;
  }
  if (query.actor) {
    filters.push('actorId = :actor');
    values[':actor'] = query.actor;
  }
  if (query.target) {
    // Impersonation entries name their end user as `userId`; every other entry as `targetId`.
    filters.push('(targetId = :target OR userId = :target)');
    values[':target'] = query.target;
  }
  // A cursor of an earlier page read with other bounds: past the newest bound it starts at that
  // bound; older than the oldest, nothing of the range is left (DynamoDB refuses a start outside).
  if (query.after !== undefined && query.after < low) return { items: [], next: null };
  const items: Item[] = [];
  let cursor: Record<string, unknown> | undefined =
    query.after !== undefined && query.after <= high ? { pk: keys.audit(trail), sk: query.after } : undefined;
  for (let read = 0; read < MAX_READS; read++) {
    const answer = await db.client.send(
      new QueryCommand({
        TableName: db.table,
        KeyConditionExpression: 'pk = :trail AND sk BETWEEN :low AND :high',
        FilterExpression: filters.join(' AND '),
        ...(query.action ? { ExpressionAttributeNames: { '#action': 'action' } } : {}),
        ExpressionAttributeValues: values,
        ScanIndexForward: false,
        ConsistentRead: true,
        // One more than the page: whether another page exists is known without a second call.
        Limit: query.limit + 1 - items.length,
        ExclusiveStartKey: cursor,
      }),
    );
    items.push(...(answer.Items ?? []));
    cursor = answer.LastEvaluatedKey;
    if (items.length > query.limit) {
      const page = items.slice(0, query.limit);
      return { items: page.map(auditEntryRecord), next: String(page.at(-1)?.sk) };
    }
    if (!cursor) return { items: items.map(auditEntryRecord), next: null };
  }
  // Read as much as one answer may: the reader goes on from where the reads stopped.
  return { items: items.map(auditEntryRecord), next: cursor ? String(cursor.sk) : null };
}
