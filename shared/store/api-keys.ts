import { GetCommand } from '@aws-sdk/lib-dynamodb';
import type { Item } from './batch.ts';
import type { Db } from './db.ts';
import { type CreateOutcome, putNew } from './items.ts';
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

/** Stores a new key record; a hash collision of 128 random bits would be `exists`. */
export async function putApiKey(db: Db, stored: StoredApiKey): Promise<CreateOutcome> {
  const { keyHash, ...fields } = stored;
  return putNew(db, { ...keys.apiKey(keyHash), type: 'apiKey', ...fields });
}
