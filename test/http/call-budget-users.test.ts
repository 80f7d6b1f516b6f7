import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CallCounter } from '../../fixtures/call-counter.ts';
import { startTestApp, type TestApp } from '../support/app.ts';
import { newEmail, signIn } from '../support/sign-in.ts';
import { createOwnedApplication, manage } from '../support/tenancy.ts';

// Every management route has a call budget (docs/data-model.md, "Calls per request", keeps the same numbers).
// A BatchGetItem, TransactWriteItems or BatchWriteItem counts as one call. With a secret key the
// chain reads the key and the application (2 GetItem); with a platform session it reads the session
// (1 BatchGetItem), the application and the caller's membership (2 GetItem).
const counter = new CallCounter();
let app: TestApp;
let owned: Awaited<ReturnType<typeof createOwnedApplication>>;

beforeAll(async () => {
  app = await startTestApp();
  counter.watch(app.deps);
  owned = await createOwnedApplication(app);
  // A key's first use in a minute by a route that may write notes it once (docs/api.md, "API keys"): the
  // budgets below are after that note (the injected clock stands still).
  const warm = await signIn(app, newEmail(), { 'x-api-key': owned.publicKey });
  const noted = await manage(
    app,
    'POST',
    `/applications/${owned.applicationId}/users/${warm.body.user.id}/revoke-sessions`,
    { apiKey: owned.secretKey },
  );
  expect(noted.status).toBe(200);
});
afterAll(() => app.close());

async function endUser() {
  const signedIn = await signIn(app, newEmail(), { 'x-api-key': owned.publicKey });
  return { email: signedIn.email, token: signedIn.token, userId: signedIn.body.user.id as string };
}

/** The DynamoDB commands of one request, in order; these routes never sign nor send mail. */
async function commandsOf(run: () => Promise<{ status: number; text: string }>, status = 200) {
  counter.reset();
  const response = await run();
  expect(response.status, response.text).toBe(status);
  const calls = counter.snapshot();
  expect({ kmsSign: calls.kmsSign, sesSend: calls.sesSend }).toEqual({ kmsSign: 0, sesSend: 0 });
  return calls.commands;
}

const secret = () => ({ apiKey: owned.secretKey });
const users = () => `/applications/${owned.applicationId}/users`;
const orgs = () => `/applications/${owned.applicationId}/organizations`;
const KEY_CHAIN = ['GetItemCommand', 'GetItemCommand'];
const SESSION_CHAIN = ['BatchGetItemCommand', 'GetItemCommand', 'GetItemCommand'];

describe('AWS calls per application-user request', () => {
  it('list: the chain, then one Query of gsi1 (the total is the counter on the application)', async () => {
    await endUser();
    expect(await commandsOf(() => manage(app, 'GET', users(), secret()))).toEqual([
      ...KEY_CHAIN,
      'QueryCommand',
    ]);
    expect(await commandsOf(() => manage(app, 'GET', users(), { token: owned.owner.token }))).toEqual([
      ...SESSION_CHAIN,
      'QueryCommand',
    ]);
  });

  it('search: the chain, then one Query of gsi1 (address) and one of gsi2 (name)', async () => {
    expect(await commandsOf(() => manage(app, 'GET', `${users()}/search?q=user`, secret()))).toEqual([
      ...KEY_CHAIN,
      'QueryCommand',
      'QueryCommand',
    ]);
  });

  it('read 1 GetItem, update 1 GetItem + 1 transaction, enable 1 GetItem + 1 transaction', async () => {
    const user = await endUser();
    const path = `${users()}/${user.userId}`;
    expect(await commandsOf(() => manage(app, 'GET', path, secret()))).toEqual([
      ...KEY_CHAIN,
      'GetItemCommand',
    ]);
    expect(await commandsOf(() => manage(app, 'PATCH', path, secret(), { name: 'Ada' }))).toEqual([
      ...KEY_CHAIN,
      'GetItemCommand',
      'TransactWriteItemsCommand',
    ]);
    expect(await commandsOf(() => manage(app, 'POST', `${path}/enable`, secret()))).toEqual([
      ...KEY_CHAIN,
      'GetItemCommand',
      'TransactWriteItemsCommand',
    ]);
  });

  it('disable: read, one transaction, then the sessions Query and one TransactWriteItems ending them (uncounted)', async () => {
    const user = await endUser();
    expect(
      await commandsOf(() => manage(app, 'POST', `${users()}/${user.userId}/disable`, secret())),
    ).toEqual([
      ...KEY_CHAIN,
      'GetItemCommand',
      'TransactWriteItemsCommand',
      'QueryCommand',
      'TransactWriteItemsCommand',
    ]);
  });

  it('revoke-sessions: read, the sessions Query, one TransactWriteItems ending them (90 sessions a transaction), then its audit entry', async () => {
    const user = await endUser();
    // The entry follows the sessions' own transactions (docs/api.md "Audit trail"), once one ended.
    expect(
      await commandsOf(() => manage(app, 'POST', `${users()}/${user.userId}/revoke-sessions`, secret())),
    ).toEqual([
      ...KEY_CHAIN,
      'GetItemCommand',
      'QueryCommand',
      'TransactWriteItemsCommand',
      'TransactWriteItemsCommand',
    ]);
    // None live: nothing ends and nothing is recorded.
    expect(
      await commandsOf(() => manage(app, 'POST', `${users()}/${user.userId}/revoke-sessions`, secret())),
    ).toEqual([...KEY_CHAIN, 'GetItemCommand', 'QueryCommand']);
  });

  it('delete: read, disable (one transaction), sessions (Query, TransactWriteItems), memberships (Query, BatchGetItem, one transaction each), then the account (one transaction)', async () => {
    const user = await endUser();
    expect(await commandsOf(() => manage(app, 'DELETE', `${users()}/${user.userId}`, secret()), 204)).toEqual(
      [
        ...KEY_CHAIN,
        'GetItemCommand',
        'TransactWriteItemsCommand',
        'QueryCommand',
        'TransactWriteItemsCommand',
        'QueryCommand',
        'BatchGetItemCommand',
        'QueryCommand',
        'TransactWriteItemsCommand',
        'TransactWriteItemsCommand',
      ],
    );
  });
});

describe('AWS calls per tenant-organization request', () => {
  it('list 1 Query; read 1 GetItem; rename 1 GetItem + 1 TransactWriteItems (with its audit entry); members 1 GetItem + 1 Query', async () => {
    const user = await endUser();
    const created = await manage(app, 'POST', orgs(), secret(), { name: 'Team', userId: user.userId });
    const path = `${orgs()}/${created.body.id}`;
    expect(await commandsOf(() => manage(app, 'GET', orgs(), secret()))).toEqual([
      ...KEY_CHAIN,
      'QueryCommand',
    ]);
    expect(await commandsOf(() => manage(app, 'GET', path, secret()))).toEqual([
      ...KEY_CHAIN,
      'GetItemCommand',
    ]);
    expect(await commandsOf(() => manage(app, 'PATCH', path, secret(), { name: 'T2' }))).toEqual([
      ...KEY_CHAIN,
      'GetItemCommand',
      'TransactWriteItemsCommand',
    ]);
    expect(await commandsOf(() => manage(app, 'GET', `${path}/members`, secret()))).toEqual([
      ...KEY_CHAIN,
      'GetItemCommand',
      'QueryCommand',
    ]);
  });

  it('create: the owner read, one transaction (organization, owner, counter on the application)', async () => {
    const user = await endUser();
    expect(
      await commandsOf(() => manage(app, 'POST', orgs(), secret(), { name: 'T', email: user.email }), 201),
    ).toEqual([...KEY_CHAIN, 'GetItemCommand', 'TransactWriteItemsCommand']);
  });

  it('members: add, change and remove read the organization and the member (or account), then one transaction', async () => {
    const [owner, other] = [await endUser(), await endUser()];
    const created = await manage(app, 'POST', orgs(), secret(), { name: 'Team', userId: owner.userId });
    const members = `${orgs()}/${created.body.id}/members`;
    const budget = [...KEY_CHAIN, 'GetItemCommand', 'GetItemCommand', 'TransactWriteItemsCommand'];
    expect(
      await commandsOf(() => manage(app, 'POST', members, secret(), { email: other.email }), 201),
    ).toEqual(budget);
    expect(
      await commandsOf(() => manage(app, 'PATCH', `${members}/${other.userId}`, secret(), { role: 'admin' })),
    ).toEqual(budget);
    expect(
      await commandsOf(() => manage(app, 'DELETE', `${members}/${other.userId}`, secret()), 204),
    ).toEqual(budget);
  });

  it('delete: the organization read, its members Query, one transaction', async () => {
    const user = await endUser();
    const created = await manage(app, 'POST', orgs(), secret(), { name: 'T', userId: user.userId });
    expect(
      await commandsOf(() => manage(app, 'DELETE', `${orgs()}/${created.body.id}`, secret()), 204),
    ).toEqual([...KEY_CHAIN, 'GetItemCommand', 'QueryCommand', 'TransactWriteItemsCommand']);
  });
});
