import { PutCommand } from '@aws-sdk/lib-dynamodb';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startConflictProxy } from '../../bench/conflict-proxy.ts';
import { startStreamReader } from '../../shared/local/stream-reader.ts';
import { createDb } from '../../shared/store/db.ts';
import type { StreamEvent } from '../../shared/store/stream-records.ts';
import { aggregate, ofCountedPartition } from '../../shared/tenancy/statistics-stream.ts';
import { startTestApp, type TestApp } from '../support/app.ts';
import { newEmail, signIn } from '../support/sign-in.ts';
import { storeWith } from '../support/store.ts';
import { createOwnedApplication, manage } from '../support/tenancy.ts';

// The statistics aggregator (docs/data-model.md, Statistics) against the real stream of DynamoDB
// Local: what a sign-in's transaction names, and that every delivery of the stream counts once,
// however often it comes, wherever it failed, and whatever TTL deletes.

let app: TestApp;
/** Every TransactWriteItems the service sent, with the partition keys it named. */
const transactions: string[][] = [];
beforeAll(async () => {
  // The app's own reader reads only when a test asks (test/support/app.ts): each test decides what
  // is counted when.
  app = await startTestApp({
    statistics: true,
    overrides: (defaults) => ({
      db: storeWith(defaults.config, 'recordTransactions', (next, context) => async (args) => {
        if ((context as { commandName?: string }).commandName === 'TransactWriteItemsCommand') {
          const items = (args.input as { TransactItems: Record<string, any>[] }).TransactItems;
          transactions.push(
            items.map((item) => {
              const write = item.Put ?? item.Update ?? item.Delete ?? item.ConditionCheck;
              return String((write.Item ?? write.Key).pk);
            }),
          );
        }
        return next(args);
      }),
    }),
  });
});
afterAll(async () => {
  await app.close();
});

async function statistics(secretKey: string, applicationId: string) {
  await app.caughtUp();
  const response = await manage(app, 'GET', `/applications/${applicationId}/statistics`, {
    apiKey: secretKey,
  });
  expect(response.status, response.text).toBe(200);
  return response.body.totals;
}

/** A second reader of the same stream: every record is delivered to the aggregator again. */
function secondReader(deliver: (event: StreamEvent) => Promise<unknown>) {
  return startStreamReader({
    endpoint: app.deps.config.DYNAMODB_ENDPOINT ?? '',
    table: app.deps.db.table,
    deliver,
    intervalMs: 0,
  });
}

describe('the statistics aggregator', () => {
  it('keeps every item other sign-ins of the application write out of a sign-in transaction', async () => {
    // Prepare
    const { publicKey } = await createOwnedApplication(app);
    const email = newEmail();
    transactions.length = 0;

    // Act: a first sign-in, then a later one.
    await signIn(app, email, { 'x-api-key': publicKey });
    await signIn(app, email, { 'x-api-key': publicKey });

    // Assess: the account, its user and organization, the pending sign-in: nothing shared.
    const named = transactions.flat();
    expect(transactions.length).toBeGreaterThanOrEqual(2);
    expect(named.filter((pk) => pk.startsWith('APP#') || pk.startsWith('STATS#'))).toEqual([]);
  });

  it('counts each record once when the stream is delivered twice', async () => {
    // Prepare
    const { applicationId, publicKey, secretKey } = await createOwnedApplication(app);
    const again = secondReader((event) => aggregate(app.deps, event));

    // Act
    for (let i = 0; i < 3; i++) await signIn(app, newEmail(), { 'x-api-key': publicKey });
    await Promise.all([app.caughtUp(), again.caughtUp()]);
    await again.caughtUp();
    await again.close();

    // Assess
    expect(await statistics(secretKey, applicationId)).toEqual({
      users: 3,
      newUsers: 3,
      signIns: 3,
      activeSessions: 3,
    });
  });

  it('counts a batch that failed part-way exactly once when it is delivered again', async () => {
    // Prepare: 60 users of the application and a session each, not counted yet (120 records that
    // count), collected as one batch, more than one transaction holds. Written as the sign-in writes
    // those items (what the aggregator reads of them), without the rest of a sign-in's work.
    const { applicationId, secretKey } = await createOwnedApplication(app);
    const before = await statistics(secretKey, applicationId);
    const createdAt = new Date(app.clock.now()).toISOString();
    for (let i = 0; i < 60; i++) {
      const user = { pk: `USER#usr_batch${i}`, type: 'user', scope: applicationId, createdAt };
      const session = { ...user, type: 'session', countedIn: createdAt.slice(0, 16) };
      await app.deps.db.client.send(
        new PutCommand({ TableName: app.deps.db.table, Item: { ...user, sk: 'PROFILE' } }),
      );
      await app.deps.db.client.send(
        new PutCommand({ TableName: app.deps.db.table, Item: { ...session, sk: `SESSION#ses_batch${i}` } }),
      );
    }
    const batch: StreamEvent = { Records: [] };
    // This application's records only: none of them counted yet by anyone.
    const collector = secondReader(async (event) =>
      batch.Records.push(
        ...event.Records.filter(
          (record) => ofCountedPartition(record) && JSON.stringify(record).includes(applicationId),
        ),
      ),
    );
    await collector.caughtUp();
    await collector.close();
    let transacts = 0;
    const failing = {
      ...app.deps,
      db: storeWith(app.deps.config, 'failSecondTransaction', (next, context) => async (args) => {
        const command = (context as { commandName?: string }).commandName;
        if (command === 'TransactWriteItemsCommand' && ++transacts === 2) throw new Error('lost connection');
        return next(args);
      }),
    };

    // Act: the batch fails after its first transaction; then the stream is delivered again.
    const first = await aggregate(failing, batch).then(
      () => 'counted',
      (error: Error) => error.message,
    );
    const partly = await manage(app, 'GET', `/applications/${applicationId}/statistics`, {
      apiKey: secretKey,
    });
    await app.caughtUp();

    // Assess
    expect(first).toBe('lost connection');
    expect(batch.Records).toHaveLength(120);
    // The first transaction counted part of the batch, the failed one nothing.
    expect(partly.body.totals.users - before.users).toBeGreaterThan(0);
    expect(partly.body.totals.users - before.users).toBeLessThan(60);
    expect(await statistics(secretKey, applicationId)).toEqual({
      users: before.users + 60,
      newUsers: before.newUsers + 60,
      signIns: before.signIns + 60,
      activeSessions: before.activeSessions + 60,
    });
  });

  it('counts exactly once when two shards of one application count at once and DynamoDB cancels one', async () => {
    // Prepare: 20 users of one application with a session each, not counted yet, collected and split
    // by user in two disjoint batches, as two shards of the stream (a partition key's records stay in
    // one shard) deliver them to two aggregators. Both batches add to the same counter items. DynamoDB
    // cancels a transaction that names an item another ongoing one names; DynamoDB Local never does,
    // so both go through a proxy that does (bench/conflict-proxy.ts). The first transaction is held
    // until the other shard's delivery has failed: DynamoDB kept cancelling it past the store's
    // conflict retries.
    const { applicationId, secretKey } = await createOwnedApplication(app);
    const before = await statistics(secretKey, applicationId);
    const createdAt = new Date(app.clock.now()).toISOString();
    for (let i = 0; i < 20; i++) {
      const user = { pk: `USER#usr_shard${i}`, type: 'user', scope: applicationId, createdAt };
      const session = { ...user, type: 'session', countedIn: createdAt.slice(0, 16) };
      await app.deps.db.client.send(
        new PutCommand({ TableName: app.deps.db.table, Item: { ...user, sk: 'PROFILE' } }),
      );
      await app.deps.db.client.send(
        new PutCommand({ TableName: app.deps.db.table, Item: { ...session, sk: `SESSION#ses_shard${i}` } }),
      );
    }
    const records: StreamEvent['Records'] = [];
    const collector = secondReader(async (event) =>
      records.push(
        ...event.Records.filter(
          (record) => ofCountedPartition(record) && JSON.stringify(record).includes(applicationId),
        ),
      ),
    );
    try {
      await collector.caughtUp();
    } finally {
      await collector.close();
    }
    const userNumber = (record: StreamEvent['Records'][number]) =>
      Number(/usr_shard(\d+)/.exec(record.dynamodb?.Keys?.pk?.S ?? '')?.[1]);
    const shards = [0, 1].map((shard) => records.filter((record) => userNumber(record) % 2 === shard));
    let releaseFirst: (() => void) | undefined;
    const proxy = await startConflictProxy({
      upstream: app.deps.config.DYNAMODB_ENDPOINT ?? '',
      hold: 1,
      wait: () =>
        releaseFirst ? Promise.resolve() : new Promise<void>((release) => (releaseFirst = release)),
    });
    const db = createDb({ table: app.deps.db.table, region: 'us-east-1', endpoint: proxy.url });
    const throughProxy = { ...app.deps, db };

    // Act: both shards at once; a delivery that fails for a conflict is delivered again, as the event
    // source mapping does, once the held transaction has gone through.
    const failures: string[] = [];
    const deliver = async (shard: StreamEvent['Records']) => {
      for (;;) {
        try {
          return await aggregate(throughProxy, { Records: shard });
        } catch (error) {
          if (!(error instanceof Error) || error.name !== 'CountConflict' || failures.length > 5) throw error;
          failures.push(error.name);
          releaseFirst?.();
        }
      }
    };
    let counted: Awaited<ReturnType<typeof aggregate>>[];
    let conflicts: number;
    try {
      counted = await Promise.all(shards.map(deliver));
      conflicts = proxy.counts().conflicts;
    } finally {
      releaseFirst?.();
      db.client.destroy();
      await proxy.close();
    }
    // What the two shards counted, before the app's own reader could count anything they missed.
    const byShards = await statistics(secretKey, applicationId);
    await app.caughtUp();

    // Assess: one delivery was cancelled and delivered again; every record was counted by exactly one
    // delivery, and the app's reader, reading the same records, counted none again.
    expect(shards.map((shard) => shard.length)).toEqual([20, 20]);
    expect(conflicts).toBeGreaterThan(0);
    expect(failures).toEqual(['CountConflict']);
    expect(counted.map((count) => count.counted)).toEqual([20, 20]);
    const exact = {
      users: before.users + 20,
      newUsers: before.newUsers + 20,
      signIns: before.signIns + 20,
      activeSessions: before.activeSessions + 20,
    };
    expect(byShards).toEqual(exact);
    expect(await statistics(secretKey, applicationId)).toEqual(exact);
  });

  it('uncounts a session its user ends, and none that TTL deletes', async () => {
    // Prepare
    const { applicationId, publicKey, secretKey } = await createOwnedApplication(app);
    const ended = await signIn(app, newEmail(), { 'x-api-key': publicKey });
    await signIn(app, newEmail(), { 'x-api-key': publicKey });
    await app.caughtUp();
    const session = {
      pk: { S: `USER#usr_expired` },
      sk: { S: 'SESSION#ses_expired' },
      type: { S: 'session' },
      scope: { S: applicationId },
      createdAt: { S: new Date(app.clock.now()).toISOString() },
      countedIn: { S: new Date(app.clock.now()).toISOString().slice(0, 16) },
    };

    // Act: a sign-out, and a deletion by TTL of a counted session.
    const out = await app.request('POST', '/auth/sign-out', {
      headers: { authorization: `Bearer ${ended.token}`, 'x-api-key': publicKey },
    });
    await aggregate(app.deps, {
      Records: [
        {
          eventID: 'ttl-deletion',
          eventName: 'REMOVE',
          userIdentity: { type: 'Service', principalId: 'dynamodb.amazonaws.com' },
          dynamodb: { OldImage: session },
        },
      ],
    });

    // Assess
    expect(out.status, out.text).toBe(200);
    expect(await statistics(secretKey, applicationId)).toMatchObject({ signIns: 2, activeSessions: 1 });
  });

  it('marks only the records that move a counter, and refuses a stream without old images', async () => {
    // Prepare
    const { applicationId } = await createOwnedApplication(app);
    const now = new Date(app.clock.now()).toISOString();
    const user = {
      pk: { S: 'USER#usr_marks' },
      sk: { S: 'PROFILE' },
      type: { S: 'user' },
      scope: { S: applicationId },
    };
    const session = {
      pk: { S: 'USER#usr_marks' },
      sk: { S: 'SESSION#ses_marks' },
      type: { S: 'session' },
      scope: { S: applicationId },
      createdAt: { S: now },
      countedIn: { S: now.slice(0, 16) },
    };

    // Act: a later sign-in's lastSignInAt, a refresh within the same minute, a deletion by TTL.
    const counted = await aggregate(app.deps, {
      Records: [
        {
          eventID: 'marks-user',
          eventName: 'MODIFY',
          dynamodb: { OldImage: user, NewImage: { ...user, lastSignInAt: { S: now } } },
        },
        { eventID: 'marks-refresh', eventName: 'MODIFY', dynamodb: { OldImage: session, NewImage: session } },
        {
          eventID: 'marks-ttl',
          eventName: 'REMOVE',
          userIdentity: { type: 'Service', principalId: 'dynamodb.amazonaws.com' },
          dynamodb: { OldImage: session },
        },
      ],
    });
    const keysOnly = aggregate(app.deps, {
      Records: [{ eventID: 'keys-only', eventName: 'REMOVE', dynamodb: { StreamViewType: 'KEYS_ONLY' } }],
    });

    // Assess
    expect(counted).toEqual({ counted: 0, seen: 0, ignored: 3 });
    await expect(keysOnly).rejects.toThrow(/KEYS_ONLY, not NEW_AND_OLD_IMAGES/);
  });

  it('tells whether there are more users by reading past the page, not from a total still behind', async () => {
    // Prepare: three users the aggregator has not counted yet.
    const owned = await createOwnedApplication(app);
    await app.caughtUp();
    for (let i = 0; i < 3; i++) await signIn(app, newEmail(), { 'x-api-key': owned.publicKey });
    const users = `/applications/${owned.applicationId}/users?limit=2`;

    // Act
    const behind = await manage(app, 'GET', users, { apiKey: owned.secretKey });
    await app.caughtUp();
    const counted = await manage(app, 'GET', users, { apiKey: owned.secretKey });

    // Assess
    expect(behind.body.page).toEqual({ limit: 2, offset: 0, total: 0, hasMore: true });
    expect(counted.body.page).toEqual({ limit: 2, offset: 0, total: 3, hasMore: true });
  });
});
