import { UpdateCommand } from '@aws-sdk/lib-dynamodb';
import * as z from 'zod/mini';
import { auditWrites, type StoredAuditEntry } from './audit.ts';
import type { Item } from './batch.ts';
import type { Db } from './db.ts';
import { afterPrefix, decoder } from './decode.ts';
import { isConditionFailure } from './errors.ts';
import { queryAll, readNow } from './items.ts';
import { keys } from './keys.ts';
import { type Read, readMany } from './reads.ts';
import { transactWrite } from './transact.ts';

const KeyType = z.enum(['public', 'secret']);

const ApiKeyFields = z.object({
  /** Absent on keys made before keys had ids. */
  keyId: z.optional(z.string()),
  keyType: KeyType,
  applicationId: z.string(),
  /** The key has seen its application's origin recorded (shared/tenancy/origin-learning.ts). */
  originKnown: z.optional(z.boolean()),
  lastUsedAt: z.optional(z.string()),
  revokedAt: z.optional(z.string()),
});
/** A key item (`APIKEY#<hash>` / `APIKEY`), with the hash its key names. */
export type ApiKeyRecord = z.infer<typeof ApiKeyFields> & { keyHash: string };
const apiKeyFields = decoder('API key', ApiKeyFields);
const apiKeyRecord = (item: Item): ApiKeyRecord => ({
  ...apiKeyFields(item),
  keyHash: afterPrefix(item.pk, keys.apiKey('').pk),
});

/** The read of the key item stored under `keyHash`, for a batch. */
export const apiKeyRead = (keyHash: string): Read<ApiKeyRecord> => ({
  key: keys.apiKey(keyHash),
  decode: apiKeyRecord,
});

const ApiKeyEntry = z.object({
  id: z.string(),
  keyHash: z.string(),
  keyType: KeyType,
  applicationId: z.string(),
  hint: z.string(),
  createdAt: z.string(),
  lastUsedAt: z.optional(z.string()),
  revokedAt: z.optional(z.string()),
  /** Epoch seconds, set at revocation: the entry is listed until then. */
  expiresAt: z.optional(z.number()),
});
/** The listing entry of a key in its application's partition (`APP#<id>` / `KEY#<keyId>`). */
export type ApiKeyEntry = z.infer<typeof ApiKeyEntry>;
const apiKeyEntry = decoder('API key entry', ApiKeyEntry);

/**
 * The stored record of a key: found by the key's SHA-256, never by the key (docs/security.md,
 * "Secrets and what is stored").
 */
export interface StoredApiKey {
  /** The key's public id (`key_...`), which the listing and revocation use. */
  id: string;
  keyHash: string;
  keyType: 'public' | 'secret';
  applicationId: string;
  /** The first characters, so owners can tell keys apart. */
  hint: string;
  createdAt: string;
}

/**
 * One strongly consistent GetItem: a revocation takes effect on the very next request (docs/api.md,
 * "API keys"), which an eventually consistent read could miss for a moment.
 */
export async function readApiKey(db: Db, keyHash: string): Promise<ApiKeyRecord | undefined> {
  const item = await readNow(db, keys.apiKey(keyHash));
  return item && apiKeyRecord(item);
}

export type CreateKeyOutcome = 'created' | 'missing' | 'full' | 'conflict';

/**
 * Creates the key item (by hash), its listing entry (by id) and counts it on the application, in
 * ONE TransactWriteItems: the application must exist and hold fewer than the active-key limit.
 */
export async function putApiKey(
  db: Db,
  stored: StoredApiKey,
  activeLimit: number,
  audit: StoredAuditEntry,
): Promise<CreateKeyOutcome> {
  const { keyHash, ...fields } = stored;
  const written = await transactWrite(db, [
    {
      Update: {
        TableName: db.table,
        Key: keys.application(stored.applicationId),
        UpdateExpression: 'SET keyCount = if_not_exists(keyCount, :zero) + :one',
        ConditionExpression: 'attribute_exists(pk) AND (attribute_not_exists(keyCount) OR keyCount < :limit)',
        ExpressionAttributeValues: { ':zero': 0, ':one': 1, ':limit': activeLimit },
        ReturnValuesOnConditionCheckFailure: 'ALL_OLD',
      },
    },
    {
      Put: {
        TableName: db.table,
        Item: { ...keys.apiKey(keyHash), type: 'apiKey', keyId: stored.id, ...fields },
        ConditionExpression: 'attribute_not_exists(pk)',
      },
    },
    {
      Put: {
        TableName: db.table,
        Item: {
          ...keys.apiKeyEntry(stored.applicationId, stored.id),
          type: 'apiKeyEntry',
          keyHash,
          ...fields,
        },
        ConditionExpression: 'attribute_not_exists(pk)',
      },
    },
    ...auditWrites(db.table, audit),
  ]);
  if (written.outcome !== 'failed') return written.outcome === 'written' ? 'created' : 'conflict';
  if (!written.failed.includes(0)) throw new Error('a new API key collided with a stored one');
  return written.current[0] ? 'full' : 'missing';
}

/** The listing entries of an application's keys, revoked ones included (strongly consistent). */
export async function apiKeyEntries(db: Db, applicationId: string): Promise<ApiKeyEntry[]> {
  const items = await queryAll(db, {
    KeyConditionExpression: 'pk = :app AND begins_with(sk, :key)',
    ExpressionAttributeValues: { ':app': keys.application(applicationId).pk, ':key': keys.apiKeyEntryPrefix },
    ConsistentRead: true,
  });
  return items.map(apiKeyEntry);
}

/** One strongly consistent GetItem of a key's listing entry. */
export async function readApiKeyEntry(
  db: Db,
  applicationId: string,
  keyId: string,
): Promise<ApiKeyEntry | undefined> {
  const item = await readNow(db, keys.apiKeyEntry(applicationId, keyId));
  return item && apiKeyEntry(item);
}

export type RevokeOutcome =
  | { outcome: 'revoked' }
  | { outcome: 'alreadyRevoked'; revokedAt: string }
  | { outcome: 'conflict' };

/** A revoked key stays listed (and refused) this long, then its items expire by TTL. */
const REVOKED_KEY_SECONDS = 30 * 24 * 3600;

/** The Update marking a key item or entry revoked, to expire after REVOKED_KEY_SECONDS. */
export const revokedWrite = (
  table: string,
  key: { pk: string; sk: string },
  now: Date,
  condition?: string,
) => ({
  Update: {
    TableName: table,
    Key: key,
    UpdateExpression: 'SET revokedAt = :now, expiresAt = :expires',
    ...(condition
      ? { ConditionExpression: condition, ReturnValuesOnConditionCheckFailure: 'ALL_OLD' as const }
      : {}),
    ExpressionAttributeValues: {
      ':now': now.toISOString(),
      ':expires': Math.floor(now.getTime() / 1000) + REVOKED_KEY_SECONDS,
    },
  },
});

/**
 * Marks the key and its entry revoked (expiring a month later) and uncounts it, in ONE
 * TransactWriteItems; a key already revoked (or gone with its application) stays as it is and its
 * revocation time is answered.
 */
export async function revokeApiKey(
  db: Db,
  entry: { applicationId: string; keyId: string; keyHash: string },
  now: Date,
  audit: StoredAuditEntry,
): Promise<RevokeOutcome> {
  const notRevoked = 'attribute_exists(pk) AND attribute_not_exists(revokedAt)';
  const written = await transactWrite(db, [
    revokedWrite(db.table, keys.apiKey(entry.keyHash), now, notRevoked),
    revokedWrite(db.table, keys.apiKeyEntry(entry.applicationId, entry.keyId), now, notRevoked),
    {
      Update: {
        TableName: db.table,
        Key: keys.application(entry.applicationId),
        UpdateExpression: 'SET keyCount = keyCount - :one',
        ConditionExpression: 'keyCount > :zero',
        ExpressionAttributeValues: { ':one': 1, ':zero': 0 },
      },
    },
    ...auditWrites(db.table, audit),
  ]);
  if (written.outcome !== 'failed') return written.outcome === 'written' ? { outcome: 'revoked' } : written;
  const revokedAt = written.current[1]?.revokedAt ?? written.current[0]?.revokedAt;
  if (typeof revokedAt === 'string' && revokedAt) return { outcome: 'alreadyRevoked', revokedAt };
  if (written.failed.includes(2) && !written.failed.includes(0) && !written.failed.includes(1)) {
    throw new Error(`application ${entry.applicationId} counts no active key, yet ${entry.keyId} is one`);
  }
  // The key or its entry is gone (its application was deleted): nothing to revoke.
  return { outcome: 'alreadyRevoked', revokedAt: now.toISOString() };
}

/**
 * Records a key's last use on its item, at most once a minute: the condition lets only the first
 * use after `cutoff` write, so a busy key costs one write a minute, not one a request. One
 * UpdateItem, never a transaction: requests racing at the minute's turn lose the condition at once
 * rather than conflict and retry.
 */
export async function noteApiKeyUse(db: Db, keyHash: string, now: string, cutoff: string): Promise<void> {
  try {
    await db.client.send(
      new UpdateCommand({
        TableName: db.table,
        Key: keys.apiKey(keyHash),
        UpdateExpression: 'SET lastUsedAt = :now',
        ConditionExpression:
          'attribute_exists(pk) AND (attribute_not_exists(lastUsedAt) OR lastUsedAt < :cutoff)',
        ExpressionAttributeValues: { ':now': now, ':cutoff': cutoff },
      }),
    );
  } catch (error) {
    if (!isConditionFailure(error)) throw error;
  }
}

/** The key items of listed entries, for their last use: BatchGetItem, 100 keys a call. */
export const readApiKeys = (db: Db, keyHashes: readonly string[]): Promise<ApiKeyRecord[]> =>
  readMany(db, keyHashes.map(apiKeyRead));
