import { randomUUID } from 'node:crypto';
import {
  DynamoDBClient,
  GetItemCommand,
  PutItemCommand,
  TransactGetItemsCommand,
  TransactionCanceledException,
  type TransactWriteItem,
  TransactWriteItemsCommand,
} from '@aws-sdk/client-dynamodb';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { type ConflictProxy, startConflictProxy } from '../../bench/conflict-proxy.ts';
import { ensureTable } from '../../shared/local/create-table.ts';
import { CONFLICT_ATTEMPTS, isTransactionConflict } from '../../shared/store/conflict-retry.ts';
import { createDb } from '../../shared/store/db.ts';
import { transactWrite } from '../../shared/store/transact.ts';
import { serviceEndpoint } from '../support/services.ts';

// The launch bench's proxy (docs/operations.md, "Launch load") must answer a conflict exactly as
// DynamoDB does, so that the SDK and shared/store/conflict-retry.ts read it as they would on AWS.

const table = `test-${randomUUID()}`;
const credentials = { accessKeyId: 'local', secretAccessKey: 'local' };
let direct: DynamoDBClient;

/** The transactions the proxy holds, each released by the test, never by a timer. */
let held: Array<{ ms: number; release: () => void }> = [];
let proxy: ConflictProxy;
let client: DynamoDBClient;

beforeAll(async () => {
  const endpoint = serviceEndpoint('dynamoEndpoint');
  await ensureTable(endpoint, table, { stream: false });
  direct = new DynamoDBClient({ endpoint, region: 'us-east-1', credentials });
  proxy = await startConflictProxy({
    upstream: endpoint,
    hold: 30,
    wait: (ms) => new Promise<void>((release) => held.push({ ms, release })),
  });
  client = new DynamoDBClient({ endpoint: proxy.url, region: 'us-east-1', credentials, maxAttempts: 1 });
});
afterEach(() => {
  for (const { release } of held) release();
  held = [];
  proxy.reset();
});
afterAll(async () => {
  client.destroy();
  direct.destroy();
  await proxy.close();
});

const key = (name: string) => ({ pk: { S: `PROXY#${name}` }, sk: { S: 'ITEM' } });
const put = (name: string): TransactWriteItem => ({
  Put: { TableName: table, Item: { ...key(name), value: { S: name } } },
});
const update = (name: string): TransactWriteItem => ({
  Update: {
    TableName: table,
    Key: key(name),
    UpdateExpression: 'ADD n :one',
    ExpressionAttributeValues: { ':one': { N: '1' } },
  },
});
const check = (name: string): TransactWriteItem => ({
  ConditionCheck: { TableName: table, Key: key(name), ConditionExpression: 'attribute_not_exists(pk)' },
});
const transact = (items: TransactWriteItem[]) =>
  client.send(new TransactWriteItemsCommand({ TransactItems: items }));
const stored = async (name: string) =>
  (await direct.send(new GetItemCommand({ TableName: table, Key: key(name), ConsistentRead: true }))).Item;
const holding = (count: number) => vi.waitFor(() => expect(held).toHaveLength(count));

describe('the conflict proxy', () => {
  it('cancels a transaction naming an item an ongoing one names, as DynamoDB answers it', async () => {
    const [a, b, c] = [randomUUID(), randomUUID(), randomUUID()];
    const first = transact([put(a), update(b)]);
    await holding(1);
    const second = await transact([check(c), update(b)]).catch((error: unknown) => error);
    expect(second).toBeInstanceOf(TransactionCanceledException);
    expect((second as TransactionCanceledException).CancellationReasons).toEqual([
      { Code: 'None' },
      { Code: 'TransactionConflict', Message: 'Transaction is ongoing for the item' },
    ]);
    expect((second as Error).message).toBe(
      'Transaction cancelled, please refer cancellation reasons for specific reasons [None, TransactionConflict]',
    );
    // What the service retries (shared/store/conflict-retry.ts), and reads as no condition failed.
    expect(isTransactionConflict(second)).toBe(true);
    held[0]?.release();
    await first;
    expect((await stored(b))?.n).toEqual({ N: '1' });
    expect(proxy.counts()).toMatchObject({ transactions: 2, conflicts: 1, committed: 1 });
    expect(proxy.counts().hotItems).toEqual([
      { item: `${table}: PROXY#${b} / ITEM`, transactions: 2, conflicts: 1 },
    ]);
  });

  it('lets transactions naming different items run together', async () => {
    const [a, b] = [randomUUID(), randomUUID()];
    const both = Promise.all([transact([put(a)]), transact([update(b)])]);
    await holding(2);
    for (const { release } of held) release();
    await both;
    expect(await stored(a)).toBeDefined();
    expect(await stored(b)).toBeDefined();
    expect(proxy.counts()).toMatchObject({ transactions: 2, conflicts: 0, committed: 2, maxOngoing: 2 });
  });

  it('holds a transaction for its hold before DynamoDB Local sees it, and only transactions', async () => {
    const a = randomUUID();
    const written = transact([put(a)]);
    await holding(1);
    expect(held[0]?.ms).toBe(30);
    expect(await stored(a)).toBeUndefined();
    held[0]?.release();
    await written;
    expect(await stored(a)).toBeDefined();
    // A plain read or write is forwarded at once.
    await client.send(new PutItemCommand({ TableName: table, Item: key(randomUUID()) }));
    expect(held).toHaveLength(1);
  });

  it('holds nothing and cancels nothing with no hold: DynamoDB Local as it is', async () => {
    const a = randomUUID();
    proxy.hold = 0;
    try {
      await Promise.all([
        transact([update(a)]),
        transact([update(a)]),
        transact([check(randomUUID()), update(a)]),
      ]);
    } finally {
      proxy.hold = 30;
    }
    expect(held).toHaveLength(0);
    expect((await stored(a))?.n).toEqual({ N: '3' });
    expect(proxy.counts()).toMatchObject({ transactions: 3, conflicts: 0, committed: 3 });
  });

  it('refuses a plain write and a TransactGetItems of an item an ongoing transaction names', async () => {
    const a = randomUUID();
    const first = transact([update(a)]);
    await holding(1);
    const write = await client
      .send(new PutItemCommand({ TableName: table, Item: { ...key(a), value: { S: 'plain' } } }))
      .catch((error: unknown) => error);
    expect((write as Error).name).toBe('TransactionConflictException');
    expect(isTransactionConflict(write)).toBe(true);
    const read = await client
      .send(new TransactGetItemsCommand({ TransactItems: [{ Get: { TableName: table, Key: key(a) } }] }))
      .catch((error: unknown) => error);
    expect((read as TransactionCanceledException).CancellationReasons?.[0]?.Code).toBe('TransactionConflict');
    held[0]?.release();
    await first;
    expect(proxy.counts()).toMatchObject({
      singletonWrites: 1,
      singletonWritesOnTransactionItems: 1,
      singletonConflicts: 1,
      transactGets: 1,
      transactGetConflicts: 1,
    });
  });

  it('is retried by the service as a conflict, then answered as one when it outlasts the retries', async () => {
    const a = randomUUID();
    const first = transact([update(a)]);
    await holding(1);
    const db = createDb({ table, region: 'us-east-1', endpoint: proxy.url });
    const outcome = await transactWrite(db, [
      {
        Update: {
          TableName: table,
          Key: { pk: `PROXY#${a}`, sk: 'ITEM' },
          UpdateExpression: 'SET m = :m',
          ExpressionAttributeValues: { ':m': 1 },
        },
      },
    ]);
    expect(outcome).toEqual({ outcome: 'conflict' });
    expect(proxy.counts()).toMatchObject({
      transactions: 1 + CONFLICT_ATTEMPTS,
      conflicts: CONFLICT_ATTEMPTS,
    });
    held[0]?.release();
    await first;
    db.client.destroy();
  });
});
