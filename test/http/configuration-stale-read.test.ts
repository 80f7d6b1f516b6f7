import { GetCommand } from '@aws-sdk/lib-dynamodb';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { keys } from '../../shared/store/keys.ts';
import { startTestApp, type TestApp } from '../support/app.ts';
import { createOwnedApplication, manage } from '../support/tenancy.ts';

// An eventually consistent GetItem may answer an item as it was before a recent write. While
// `stale` is set, the application's non-consistent reads answer that older snapshot.
let stale: { pk: string; item: Record<string, unknown> } | null = null;
let app: TestApp;
beforeAll(async () => {
  app = await startTestApp({
    overrides: (defaults) => ({
      db: {
        table: defaults.db.table,
        client: new Proxy(defaults.db.client, {
          get(target, prop, receiver) {
            if (prop !== 'send') return Reflect.get(target, prop, receiver);
            return (command: unknown, ...rest: unknown[]) => {
              if (
                stale &&
                command instanceof GetCommand &&
                !command.input.ConsistentRead &&
                command.input.Key?.pk === stale.pk
              ) {
                return Promise.resolve({ Item: stale.item, $metadata: {} });
              }
              return (target.send as (...args: unknown[]) => Promise<unknown>)(command, ...rest);
            };
          },
        }),
      },
    }),
  });
});
afterAll(() => app.close());

type Owned = Awaited<ReturnType<typeof createOwnedApplication>>;

async function storedItem(owned: Owned) {
  const { Item } = await app.deps.db.client.send(
    new GetCommand({
      TableName: app.deps.db.table,
      Key: keys.application(owned.applicationId),
      ConsistentRead: true,
    }),
  );
  return Item as Record<string, unknown>;
}

describe('a configuration write by a key, decided from an eventually consistent read', () => {
  it('is not skipped as "unchanged" when the stale copy already holds the new document (A, B, then A again)', async () => {
    // Prepare
    const owned = await createOwnedApplication(app);
    const setDomain = (domain: string) =>
      manage(
        app,
        'PATCH',
        `/applications/${owned.applicationId}/configuration`,
        { apiKey: owned.secretKey },
        { authentication: { syntheticEmailDomain: domain } },
      );
    expect((await setDomain('a.acme.test')).status).toBe(200);
    const snapshotA = await storedItem(owned);
    expect((await setDomain('b.acme.test')).status).toBe(200);
    stale = { pk: `APP#${owned.applicationId}`, item: snapshotA };

    // Act
    const third = await setDomain('a.acme.test');
    stale = null;

    // Assess
    expect(third.status, third.text).toBe(200);
    expect(third.body.authentication.syntheticEmailDomain).toBe('a.acme.test');
    const stored = (await storedItem(owned)).config as { authentication: { syntheticEmailDomain: string } };
    expect(stored.authentication.syntheticEmailDomain).toBe('a.acme.test');
  });

  it('still writes nothing when a consistent read confirms the document is unchanged', async () => {
    // Prepare
    const owned = await createOwnedApplication(app);
    const body = { authentication: { syntheticEmailDomain: 'same.acme.test' } };
    const path = `/applications/${owned.applicationId}/configuration`;
    expect((await manage(app, 'PATCH', path, { apiKey: owned.secretKey }, body)).status).toBe(200);
    const before = await storedItem(owned);

    // Act
    const again = await manage(app, 'PATCH', path, { apiKey: owned.secretKey }, body);

    // Assess
    expect(again.status, again.text).toBe(200);
    expect((await storedItem(owned)).configVersion).toBe(before.configVersion);
  });
});
