import { QueryCommand } from '@aws-sdk/lib-dynamodb';
import type { Item } from './batch.ts';
import type { Db } from './db.ts';
import type { TransactItem } from './errors.ts';
import { keys } from './keys.ts';

/** Who did it: the signed-in member (support user or owner/admin) the entry names. */
interface AuditBase {
  id: string;
  applicationId: string;
  /** ISO time; with the id, the entry's sort key. */
  at: string;
  actorId: string;
  actorEmail: string;
}

/** An impersonation began or ended. */
export interface ImpersonationAuditEntry extends AuditBase {
  action: 'impersonation.started' | 'impersonation.ended';
  /** The end user the event concerns. */
  userId: string;
  impersonationId: string;
  reason: string;
}

/**
 * One change of a social sign-in setting: a provider's `enabled`, `clientId`, `issuer` or
 * `clientSecret` (never its value: `'set'` for the stored one, `'new secret'` for one this write
 * gave, null for none), or the return URLs (`socialReturnUrls`, the whole list before and after).
 */
export interface SocialSignInChange {
  path: string;
  from: string | boolean | string[] | null;
  to: string | boolean | string[] | null;
}

/** The application's social sign-in changed: who can sign in as its users, and where codes go. */
export interface SocialSignInAuditEntry extends AuditBase {
  action: 'socialSignIn.changed';
  changes: SocialSignInChange[];
}

/** One event of an application's audit trail (shared/tenancy/audit.ts makes and reads it). */
export type StoredAuditEntry = ImpersonationAuditEntry | SocialSignInAuditEntry;

// Append-only: an entry is only ever created, never over another; no route updates or deletes one.
const newEntry = 'attribute_not_exists(pk)';

/**
 * The writes that append `entry` to its application's trail, for the transaction of the event it
 * records (never on their own): the entry and the trail's counter, which `total` reads.
 */
export function auditWrites(table: string, entry: StoredAuditEntry): TransactItem[] {
  return [
    {
      Put: {
        TableName: table,
        Item: { ...keys.auditEntry(entry.applicationId, entry.at, entry.id), type: 'auditEntry', ...entry },
        ConditionExpression: newEntry,
      },
    },
    {
      Update: {
        TableName: table,
        Key: keys.auditTotal(entry.applicationId),
        UpdateExpression: 'ADD entries :one',
        ExpressionAttributeValues: { ':one': 1 },
      },
    },
  ];
}

/**
 * One page of the trail, newest first, and how many entries it holds: a descending Query of the
 * trail's partition (strongly consistent) meets its counter (`TOTAL`) first, then the entries, so
 * both come in one call (more only for pages far down a long trail: 1 MB per Query page).
 */
export async function readAuditPage(
  db: Db,
  applicationId: string,
  page: { limit: number; offset: number },
): Promise<{ total: number; items: Item[] }> {
  // The counter, then the entries up to the page's end (PageQuery bounds the offset at 10 000).
  const wanted = 1 + page.offset + page.limit;
  const items: Item[] = [];
  let cursor: Record<string, unknown> | undefined;
  do {
    const answer = await db.client.send(
      new QueryCommand({
        TableName: db.table,
        KeyConditionExpression: 'pk = :trail',
        ExpressionAttributeValues: { ':trail': keys.audit(applicationId) },
        ScanIndexForward: false,
        ConsistentRead: true,
        Limit: wanted - items.length,
        ExclusiveStartKey: cursor,
      }),
    );
    items.push(...(answer.Items ?? []));
    cursor = answer.LastEvaluatedKey;
  } while (cursor && items.length < wanted);
  const counted = items[0]?.sk === keys.auditTotal(applicationId).sk;
  const entries = counted ? items.slice(1) : items;
  return {
    total: counted ? ((items[0]?.entries as number | undefined) ?? 0) : 0,
    items: entries.slice(page.offset, page.offset + page.limit),
  };
}
