import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CallCounter } from '../../fixtures/call-counter.ts';
import { startTestApp, TEST_ISSUER, type TestApp } from '../support/app.ts';
import {
  type ClientMetadataServer,
  metadataEnv,
  startClientMetadataServer,
} from '../support/client-metadata-server.ts';
import { countedBy } from '../support/counted.ts';
import { freshIp } from '../support/http-client.ts';
import { newEmail } from '../support/sign-in.ts';
import { createOwnedApplication, manage } from '../support/tenancy.ts';

// Budgets of the configuration routes and of origin learning (docs/data-model.md keeps the same
// numbers): a BatchGetItem or TransactWriteItems counts as one call. The protected resource
// metadata a new resource needs (RFC 9728) is an HTTPS fetch beside them, no AWS call.
const counter = new CallCounter();
let app: TestApp;
let metadata: ClientMetadataServer;

beforeAll(async () => {
  metadata = await startClientMetadataServer();
  app = await startTestApp({
    env: metadataEnv(metadata),
    overrides: countedBy(counter),
  });
  counter.watch(app.deps);
});
afterAll(async () => {
  await app.close();
  await metadata.close();
});

/** Runs one request and returns the DynamoDB commands it sent, in order. */
async function commandsOf(run: () => Promise<{ status: number; text: string }>, expectedStatus = 200) {
  counter.reset();
  const response = await run();
  expect(response.status, response.text).toBe(expectedStatus);
  const calls = counter.snapshot();
  expect({ kmsSign: calls.kmsSign }).toEqual({ kmsSign: 0 });
  return calls.commands;
}

type Owned = Awaited<ReturnType<typeof createOwnedApplication>>;
const path = (owned: Owned) => `/applications/${owned.applicationId}/configuration`;
let resourceCount = 0;
const newResource = () => metadata.serveResource(`/budget-${++resourceCount}/mcp`, TEST_ISSUER);

/** The caller resolution and the permission of a platform session: the session, the application, the membership. */
const asOwner = ['BatchGetItemCommand', 'GetItemCommand', 'GetItemCommand'];

describe('AWS calls per configuration request', () => {
  let owned: Owned;
  beforeAll(async () => {
    owned = await createOwnedApplication(app);
  });

  it('GET: 3 reads as an owner (session, application, membership); 2 with the secret key (key, application)', async () => {
    expect(await commandsOf(() => manage(app, 'GET', path(owned), { token: owned.owner.token }))).toEqual(
      asOwner,
    );
    await manage(app, 'GET', path(owned), { apiKey: owned.secretKey });
    expect(await commandsOf(() => manage(app, 'GET', path(owned), { apiKey: owned.secretKey }))).toEqual([
      'GetItemCommand',
      'GetItemCommand',
    ]);
  });

  it('PUT claiming and releasing resources: the reads, then ONE TransactWriteItems', async () => {
    const token = owned.owner.token;
    const document = (resources: string[]) => ({
      authentication: { syntheticEmailDomain: 'bots.test' },
      oauth: { resources },
      origin: null,
      socialProviders: { google: null, github: null, microsoft: null, oidc: null },
      socialReturnUrls: [],
    });
    expect(
      await commandsOf(() => manage(app, 'PUT', path(owned), { token }, document([newResource()]))),
    ).toEqual([...asOwner, 'TransactWriteItemsCommand']);
    const again = document([newResource(), newResource()]);
    expect(await commandsOf(() => manage(app, 'PUT', path(owned), { token }, again))).toEqual([
      ...asOwner,
      'TransactWriteItemsCommand',
    ]);
    // The same document again writes nothing, once a consistent read confirms it is unchanged.
    expect(await commandsOf(() => manage(app, 'PUT', path(owned), { token }, again))).toEqual([
      ...asOwner,
      'GetItemCommand',
    ]);
  });

  it('PATCH by the secret key: 2 reads, then ONE TransactWriteItems; unchanged: + 1 consistent GetItem, no write', async () => {
    const apiKey = owned.secretKey;
    const body = { authentication: { syntheticEmailDomain: `k${process.pid}.acme.test` } };
    // A write route notes the key's first use within the minute (one UpdateItem): use it once first.
    await manage(app, 'PATCH', path(owned), { apiKey }, {});
    expect(await commandsOf(() => manage(app, 'PATCH', path(owned), { apiKey }, body))).toEqual([
      'GetItemCommand',
      'GetItemCommand',
      'TransactWriteItemsCommand',
    ]);
    expect(await commandsOf(() => manage(app, 'PATCH', path(owned), { apiKey }, body))).toEqual([
      'GetItemCommand',
      'GetItemCommand',
      'GetItemCommand',
    ]);
  });

  it('PATCH setting the first origin (or removing it): + 1 Query of the keys, whose flags change in the same transaction', async () => {
    const token = owned.owner.token;
    const set = await commandsOf(() =>
      manage(app, 'PATCH', path(owned), { token }, { origin: 'https://acme.com' }),
    );
    expect(set).toEqual([...asOwner, 'QueryCommand', 'TransactWriteItemsCommand']);
    const replace = await commandsOf(() =>
      manage(app, 'PATCH', path(owned), { token }, { origin: 'https://www.acme.com' }),
    );
    expect(replace).toEqual([...asOwner, 'TransactWriteItemsCommand']);
    const remove = await commandsOf(() => manage(app, 'PATCH', path(owned), { token }, { origin: null }));
    expect(remove).toEqual([...asOwner, 'QueryCommand', 'TransactWriteItemsCommand']);
  });
});

describe('AWS calls of origin learning', () => {
  const byKey = (key: string, origin: string) =>
    app.request('GET', '/application/by-api-key', { headers: { 'x-api-key': key, origin }, ip: freshIp() });
  /** `GET /application/by-api-key` with a key used within the minute: the key, the application. */
  const byKeyReads = ['GetItemCommand', 'GetItemCommand'];

  it('costs ONE TransactWriteItems on the first real origin, and no call at all once it is known', async () => {
    // Prepare
    const owned = await createOwnedApplication(app);
    await byKey(owned.publicKey, 'https://acme.test');

    // Act
    const first = await commandsOf(() => byKey(owned.publicKey, 'https://notes.acme.com'));
    const later = await commandsOf(() => byKey(owned.publicKey, 'https://notes.acme.com'));
    const elsewhere = await commandsOf(() => byKey(owned.publicKey, 'https://other.acme.com'));

    // Assess: one write sets the origin, marks the key and records origin.learned.
    expect(first).toEqual([...byKeyReads, 'TransactWriteItemsCommand']);
    expect(later).toEqual(byKeyReads);
    expect(elsewhere).toEqual(byKeyReads);
  });

  it('costs nothing for a disposable origin', async () => {
    const owned = await createOwnedApplication(app);
    await byKey(owned.publicKey, 'https://acme.test');
    expect(await commandsOf(() => byKey(owned.publicKey, 'https://acme-git-x.vercel.app'))).toEqual(
      byKeyReads,
    );
    expect(await commandsOf(() => byKey(owned.publicKey, 'https://localhost:3000'))).toEqual(byKeyReads);
  });

  it('costs a key that never saw the known origin two writes, once', async () => {
    // Prepare
    const owned = await createOwnedApplication(app);
    await manage(app, 'PATCH', path(owned), { token: owned.owner.token }, { origin: 'https://www.acme.com' });
    const key = (
      await manage(
        app,
        'POST',
        '/api-keys',
        { token: owned.owner.token },
        {
          applicationId: owned.applicationId,
          type: 'public',
        },
      )
    ).body.key as string;
    await byKey(key, 'https://acme.test');

    // Act
    const first = await commandsOf(() => byKey(key, 'https://www.acme.com'));
    const later = await commandsOf(() => byKey(key, 'https://www.acme.com'));

    // Assess: the learning write, refused as the origin is set (only the request that sets it records
    // origin.learned), then the key's mark alone.
    expect(first).toEqual([...byKeyReads, 'TransactWriteItemsCommand', 'TransactWriteItemsCommand']);
    expect(later).toEqual(byKeyReads);
  });

  it('adds nothing to start once the origin is known', async () => {
    // Prepare
    const owned = await createOwnedApplication(app);
    await byKey(owned.publicKey, 'https://notes.acme.com');
    const start = () =>
      app.request('POST', '/auth/code/start', {
        body: { email: newEmail() },
        headers: { 'x-api-key': owned.publicKey, origin: 'https://notes.acme.com' },
        ip: freshIp(),
      });

    // Act
    const calls = await commandsOf(start);

    // Assess
    expect(calls).toEqual(['GetItemCommand', 'BatchGetItemCommand', 'TransactWriteItemsCommand']);
  });
});
