import { BatchGetCommand, BatchWriteCommand } from '@aws-sdk/lib-dynamodb';
import type { Db } from './db.ts';

/** A stored item, as the document client returns it. */
export type Item = Record<string, unknown>;
export interface Key {
  pk: string;
  sk: string;
}

/** Rounds of a batch request before giving up on keys DynamoDB keeps leaving unprocessed. */
const BATCH_ROUNDS = 6;
/** BatchWriteItem takes at most 25 requests. */
const WRITE_BATCH = 25;

const idOf = (key: Key) => `${key.pk}\u0000${key.sk}`;
const keyOnly = (key: Key): Key => ({ pk: key.pk, sk: key.sk });

/**
 * Sends `pending` until DynamoDB has processed all of it. A batch request may leave part unprocessed
 * (throttling, size) without failing, and the SDK does not retry that part: so each round sends back
 * what the previous left, after an exponential pause.
 */
async function untilProcessed<T>(pending: T[], round: (batch: T[]) => Promise<T[]>): Promise<void> {
  for (let attempt = 0; pending.length > 0; attempt++) {
    if (attempt >= BATCH_ROUNDS) throw new Error('DynamoDB left batch requests unprocessed');
    if (attempt > 0) await new Promise((resolve) => setTimeout(resolve, 20 * 2 ** attempt));
    pending = await round(pending);
  }
}

/**
 * Strongly consistent reads of several items in ONE BatchGetItem, answered by name: each name of
 * `wanted` maps to its item, or is absent when there is none. An undefined key is not read.
 */
export async function readItems<Wanted extends Record<string, Key | undefined>>(
  db: Db,
  wanted: Wanted,
): Promise<{ [Name in keyof Wanted]?: Item }> {
  const distinct = new Map<string, Key>();
  for (const key of Object.values(wanted)) if (key) distinct.set(idOf(key), keyOnly(key));
  const found = new Map<string, Item>();
  await untilProcessed([...distinct.values()], async (keys) => {
    const answer = await db.client.send(
      new BatchGetCommand({ RequestItems: { [db.table]: { Keys: keys, ConsistentRead: true } } }),
    );
    for (const item of answer.Responses?.[db.table] ?? []) found.set(idOf(item as Key), item);
    return (answer.UnprocessedKeys?.[db.table]?.Keys as Key[] | undefined) ?? [];
  });
  const named: { [Name in keyof Wanted]?: Item } = {};
  for (const [name, key] of Object.entries(wanted) as [keyof Wanted, Key | undefined][]) {
    const item = key && found.get(idOf(key));
    if (item) named[name] = item;
  }
  return named;
}

/** Deletes the items of `keys`, 25 to a BatchWriteItem (unconditional: a missing item is no error). */
export async function deleteItems(db: Db, keys: Key[]): Promise<void> {
  for (let start = 0; start < keys.length; start += WRITE_BATCH) {
    const requests = keys
      .slice(start, start + WRITE_BATCH)
      .map((key) => ({ DeleteRequest: { Key: keyOnly(key) } }));
    await untilProcessed(requests, async (batch) => {
      const answer = await db.client.send(new BatchWriteCommand({ RequestItems: { [db.table]: batch } }));
      return (answer.UnprocessedItems?.[db.table] as typeof batch | undefined) ?? [];
    });
  }
}
