import {
  GetCommand,
  PutCommand,
  QueryCommand,
  type QueryCommandInput,
  UpdateCommand,
} from '@aws-sdk/lib-dynamodb';
import type { Item } from './batch.ts';
import type { Db } from './db.ts';
import { conditionFailureItem, holdsWrittenItem, isConditionFailure } from './errors.ts';

/** Every item a key condition names, page after page. */
export async function queryAll(
  db: Db,
  query: Omit<QueryCommandInput, 'TableName' | 'ExclusiveStartKey'>,
): Promise<Item[]> {
  const items: Item[] = [];
  let cursor: Record<string, unknown> | undefined;
  do {
    const page = await db.client.send(
      new QueryCommand({ ...query, TableName: db.table, ExclusiveStartKey: cursor }),
    );
    items.push(...(page.Items ?? []));
    cursor = page.LastEvaluatedKey;
  } while (cursor);
  return items;
}

export type CreateOutcome = { outcome: 'created' } | { outcome: 'exists' };

// A new item never overwrites another under the same key.
const newItem = 'attribute_not_exists(pk)';

/** Puts `item` unless its key is taken: `exists` then, but `created` for an SDK resend of our own landed Put. */
export async function putNew(db: Db, item: Item): Promise<CreateOutcome> {
  try {
    await db.client.send(
      new PutCommand({
        TableName: db.table,
        Item: item,
        ConditionExpression: newItem,
        ReturnValuesOnConditionCheckFailure: 'ALL_OLD',
      }),
    );
    return { outcome: 'created' };
  } catch (error) {
    if (!isConditionFailure(error)) throw error;
    // Its answer lost, our own Put that had landed finds our item.
    return holdsWrittenItem(conditionFailureItem(error), item)
      ? { outcome: 'created' }
      : { outcome: 'exists' };
  }
}

/**
 * The first `count` items a key condition names, page after page until there are enough: what an
 * offset page reads (`offset + limit` items, the page being the last `limit` of them).
 */
export async function queryUpTo(
  db: Db,
  query: Omit<QueryCommandInput, 'TableName' | 'ExclusiveStartKey' | 'Limit'>,
  count: number,
): Promise<Item[]> {
  const items: Item[] = [];
  let cursor: Record<string, unknown> | undefined;
  do {
    const page = await db.client.send(
      new QueryCommand({
        ...query,
        TableName: db.table,
        Limit: count - items.length,
        ExclusiveStartKey: cursor,
      }),
    );
    items.push(...(page.Items ?? []));
    cursor = page.LastEvaluatedKey;
  } while (cursor && items.length < count);
  return items;
}

/** One strongly consistent GetItem of the item at `key` (only its `pk` and `sk` are sent). */
export async function readNow(db: Db, key: { pk: string; sk: string }): Promise<Item | undefined> {
  const { Item } = await db.client.send(
    new GetCommand({ TableName: db.table, Key: { pk: key.pk, sk: key.sk }, ConsistentRead: true }),
  );
  return Item;
}

/**
 * `taken`: this call took the item (`item`, as it was); `missing`: no such item, or another call took
 * it; `refused`: it is there and untaken but fails `condition`, nothing changed (`current`).
 */
export type TakeOutcome =
  | { outcome: 'taken'; item: Item }
  | { outcome: 'missing' }
  | { outcome: 'refused'; current: Item };

/**
 * Takes a single-use item once (docs/reliability.md, "What a client can rely on"): ONE UpdateItem
 * stamps `takenBy` with this call's write id (random.ts `newWriteId`), only if the item is there, not
 * taken yet, and meets `condition`. A DeleteItem could not tell an SDK resend of its own landed delete
 * from a call that found nothing; a resend of the stamp finds its own id and answers as the first did.
 * A taken item stays until its TTL: its readers treat it as gone (`isTaken`).
 */
export async function takeOnce(
  db: Db,
  key: { pk: string; sk: string },
  take: { writeId: string; condition?: string; values?: Record<string, unknown> },
): Promise<TakeOutcome> {
  try {
    const { Attributes } = await db.client.send(
      new UpdateCommand({
        TableName: db.table,
        Key: { pk: key.pk, sk: key.sk },
        UpdateExpression: 'SET takenBy = :writeId',
        ConditionExpression: [
          'attribute_exists(pk) AND attribute_not_exists(takenBy)',
          ...(take.condition ? [`(${take.condition})`] : []),
        ].join(' AND '),
        ExpressionAttributeValues: { ...take.values, ':writeId': take.writeId },
        ReturnValues: 'ALL_OLD',
        ReturnValuesOnConditionCheckFailure: 'ALL_OLD',
      }),
    );
    return Attributes ? { outcome: 'taken', item: Attributes } : { outcome: 'missing' };
  } catch (error) {
    if (!isConditionFailure(error)) throw error;
    const current = conditionFailureItem(error);
    if (!current) return { outcome: 'missing' };
    if (current.takenBy === take.writeId) {
      const { takenBy: _ours, ...item } = current;
      return { outcome: 'taken', item };
    }
    return isTaken(current) ? { outcome: 'missing' } : { outcome: 'refused', current };
  }
}

/** Whether `item` was taken by `takeOnce`: gone, for whoever reads it. */
export const isTaken = (item: Item): boolean => item.takenBy !== undefined;
