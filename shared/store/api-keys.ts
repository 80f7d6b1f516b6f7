import { GetCommand } from '@aws-sdk/lib-dynamodb';
import type { Item } from './batch.ts';
import type { Db } from './db.ts';
import { queryAll } from './items.ts';
import { keys } from './keys.ts';
import { transactWrite } from './transact.ts';

/** The stored record of a key: found by the key's SHA-256, never by the key (DESIGN §3). */
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
 * One strongly consistent GetItem: a revocation takes effect on the very next request (issue 8),
 * which an eventually consistent read could miss for a moment.
 */
export async function readApiKey(db: Db, keyHash: string): Promise<Item | undefined> {
  const { Item } = await db.client.send(
    new GetCommand({ TableName: db.table, Key: keys.apiKey(keyHash), ConsistentRead: true }),
  );
  return Item;
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
  ]);
  if (written.outcome !== 'failed') return written.outcome === 'written' ? 'created' : 'conflict';
  if (!written.failed.includes(0)) throw new Error('a new API key collided with a stored one');
  return written.current[0] ? 'full' : 'missing';
}

/** The listing entries of an application's keys, revoked ones included (strongly consistent). */
export async function apiKeyEntries(db: Db, applicationId: string): Promise<Item[]> {
  return queryAll(db, {
    KeyConditionExpression: 'pk = :app AND begins_with(sk, :key)',
    ExpressionAttributeValues: { ':app': keys.application(applicationId).pk, ':key': keys.apiKeyEntryPrefix },
    ConsistentRead: true,
  });
}

/** One strongly consistent GetItem of a key's listing entry. */
export async function readApiKeyEntry(
  db: Db,
  applicationId: string,
  keyId: string,
): Promise<Item | undefined> {
  const { Item } = await db.client.send(
    new GetCommand({
      TableName: db.table,
      Key: keys.apiKeyEntry(applicationId, keyId),
      ConsistentRead: true,
    }),
  );
  return Item;
}

export type RevokeOutcome = 'revoked' | 'alreadyRevoked' | 'conflict';

/**
 * Marks the key and its entry revoked and uncounts it, in ONE TransactWriteItems; a key already
 * revoked (or gone with its application) stays as it is.
 */
export async function revokeApiKey(
  db: Db,
  entry: { applicationId: string; keyId: string; keyHash: string },
  now: string,
): Promise<RevokeOutcome> {
  const revoke = (key: { pk: string; sk: string }) => ({
    Update: {
      TableName: db.table,
      Key: key,
      UpdateExpression: 'SET revokedAt = :now',
      ConditionExpression: 'attribute_exists(pk) AND attribute_not_exists(revokedAt)',
      ExpressionAttributeValues: { ':now': now },
    },
  });
  const written = await transactWrite(db, [
    revoke(keys.apiKey(entry.keyHash)),
    revoke(keys.apiKeyEntry(entry.applicationId, entry.keyId)),
    {
      Update: {
        TableName: db.table,
        Key: keys.application(entry.applicationId),
        UpdateExpression: 'SET keyCount = keyCount - :one',
        ConditionExpression: 'keyCount > :zero',
        ExpressionAttributeValues: { ':one': 1, ':zero': 0 },
      },
    },
  ]);
  if (written.outcome === 'failed') return 'alreadyRevoked';
  return written.outcome === 'written' ? 'revoked' : 'conflict';
}

/**
 * Records a key's last use on the key and its entry, at most once a minute: the condition lets
 * only the first use after `cutoff` write, so a busy key costs one write a minute, not one a request.
 */
export async function noteApiKeyUse(
  db: Db,
  use: { applicationId: string; keyId: string; keyHash: string },
  now: string,
  cutoff: string,
): Promise<void> {
  const note = (key: { pk: string; sk: string }) => ({
    Update: {
      TableName: db.table,
      Key: key,
      UpdateExpression: 'SET lastUsedAt = :now',
      ConditionExpression:
        'attribute_exists(pk) AND (attribute_not_exists(lastUsedAt) OR lastUsedAt < :cutoff)',
      ExpressionAttributeValues: { ':now': now, ':cutoff': cutoff },
    },
  });
  // A lost race (another request noted it) or a cancelled transaction changes nothing: no retry.
  await transactWrite(db, [
    note(keys.apiKey(use.keyHash)),
    note(keys.apiKeyEntry(use.applicationId, use.keyId)),
  ]);
}
