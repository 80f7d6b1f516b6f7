import { randomUUID } from 'node:crypto';
import type { Agent } from 'node:http';
import { BatchGetCommand, GetCommand, PutCommand } from '@aws-sdk/lib-dynamodb';
import { afterAll, beforeAll, expect, it } from 'vitest';
import type { Deps } from '../../shared/deps.ts';
import { ensureTable } from '../../shared/local/create-table.ts';
import { FaultPlan, parseFaultSettings, withFaults } from '../../shared/local/faults.ts';
import { createDb, type Db } from '../../shared/store/db.ts';
import { serviceEndpoint } from '../support/services.ts';

// The fault injection of docs/reliability.md ("Faults") against DynamoDB Local: what it injects
// must be what DynamoDB does, and nothing of the injection itself may slow or break the client.

const table = `faults-${randomUUID()}`;
let endpoint: string;
beforeAll(async () => {
  endpoint = serviceEndpoint('dynamoEndpoint');
  await ensureTable(endpoint, table, { stream: false });
});

const faulted: Db[] = [];
afterAll(() => {
  for (const db of faulted) db.client.destroy();
});

/** A client of the table with `faults` injected (only its DynamoDB client is used). */
function dbWith(faults: string, seed = '1'): { db: Db; plan: FaultPlan } {
  const db = createDb({ table, region: 'us-east-1', endpoint });
  faulted.push(db);
  const plan = new FaultPlan(parseFaultSettings(faults, seed)!);
  withFaults({ db, mailer: {} } as unknown as Deps, plan);
  return { db, plan };
}

const key = (n: number) => ({ pk: `FAULT#${n}`, sk: 'ITEM' });

/** Sockets of the client's HTTP agent that are taken by a request (not free, not closed). */
function socketsInUse(db: Db): number {
  const handler = db.client.config.requestHandler as unknown as {
    httpHandlerConfigs(): { httpAgent?: Agent };
  };
  const sockets = handler.httpHandlerConfigs().httpAgent?.sockets ?? {};
  return Object.values(sockets).reduce((sum, list) => sum + (list?.length ?? 0), 0);
}

it('gives the connection of every lost answer back to the pool', async () => {
  const { db, plan } = dbWith('lost:1');
  // Each read loses the answer of each attempt (up to three, while the SDK's retry quota lasts). An
  // answer thrown away unread kept its socket: past the handler's 50, every call waited for one.
  for (let n = 0; (plan.counts().lost ?? 0) < 60; n++) {
    await expect(db.client.send(new GetCommand({ TableName: table, Key: key(n) }))).rejects.toMatchObject({
      code: 'ECONNRESET',
    });
    await new Promise((resolve) => setImmediate(resolve));
    expect(socketsInUse(db)).toBe(0);
  }
  plan.active = false;
  await expect(db.client.send(new GetCommand({ TableName: table, Key: key(0) }))).resolves.toMatchObject({
    $metadata: { httpStatusCode: 200 },
  });
});

it('commits a write whose answer it loses, as DynamoDB would', async () => {
  const { db, plan } = dbWith('lost:1');
  await expect(
    db.client.send(new PutCommand({ TableName: table, Item: { ...key(100), value: 'landed' } })),
  ).rejects.toMatchObject({ code: 'ECONNRESET' });
  plan.active = false;
  const { Item } = await db.client.send(
    new GetCommand({ TableName: table, Key: key(100), ConsistentRead: true }),
  );
  expect(Item?.value).toBe('landed');
});

it('leaves part of a batch unprocessed in the document client form, and the rest is read', async () => {
  const { db: plain } = dbWith('latency:0');
  for (let n = 200; n < 204; n++) {
    await plain.client.send(new PutCommand({ TableName: table, Item: { ...key(n), value: n } }));
  }
  const { db, plan } = dbWith('dynamodb:1', '3');
  const keys = [200, 201, 202, 203].map(key);
  // Half of the faults of a batch are a part left unprocessed; the others throttle it whole.
  for (let tries = 0; !plan.counts()['dynamodb.unprocessed'] && tries < 20; tries++) {
    const answer = await db.client
      .send(new BatchGetCommand({ RequestItems: { [table]: { Keys: keys, ConsistentRead: true } } }))
      .catch(() => undefined);
    if (!answer) continue;
    const read = (answer.Responses?.[table] ?? []).map((item) => item.value as number).sort();
    const left = (answer.UnprocessedKeys?.[table]?.Keys ?? []) as Array<{ pk: string; sk: string }>;
    expect(read).toEqual([200, 201]);
    expect(left).toEqual([key(202), key(203)]);
  }
  expect(plan.counts()['dynamodb.unprocessed']).toBeGreaterThan(0);
});
