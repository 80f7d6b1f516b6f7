import { GetCommand, PutCommand } from '@aws-sdk/lib-dynamodb';
import type { Item } from './batch.ts';
import type { Db } from './db.ts';
import { conditionFailureItem, holdsWrittenItem, isConditionFailure } from './errors.ts';
import { keys } from './keys.ts';

/** The stored record of a key: found by the key's SHA-256, never by the key (DESIGN §3). */
export interface StoredApiKey {
  keyHash: string;
  keyType: 'public' | 'secret';
  applicationId: string;
  /** The first characters, so owners can tell keys apart. */
  hint: string;
  createdAt: string;
}

/** One GetItem (eventually consistent: a key is written once, long before it is used). */
export async function readApiKey(db: Db, keyHash: string): Promise<Item | undefined> {
  const { Item } = await db.client.send(new GetCommand({ TableName: db.table, Key: keys.apiKey(keyHash) }));
  return Item;
}

// A new key never overwrites another (a hash collision of 128 random bits would be one).
const newKey = 'attribute_not_exists(pk)';

export type CreateOutcome = { outcome: 'created' } | { outcome: 'exists' };

export async function putApiKey(db: Db, stored: StoredApiKey): Promise<CreateOutcome> {
  const { keyHash, ...fields } = stored;
  const item = { ...keys.apiKey(keyHash), type: 'apiKey', ...fields };
  try {
    await db.client.send(
      new PutCommand({
        TableName: db.table,
        Item: item,
        ConditionExpression: newKey,
        ReturnValuesOnConditionCheckFailure: 'ALL_OLD',
      }),
    );
    return { outcome: 'created' };
  } catch (error) {
    if (!isConditionFailure(error)) throw error;
    // An SDK resend of our own Put that had landed (its answer lost) finds our item: created.
    return holdsWrittenItem(conditionFailureItem(error), item)
      ? { outcome: 'created' }
      : { outcome: 'exists' };
  }
}
