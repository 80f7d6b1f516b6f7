import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CallCounter } from '../../fixtures/call-counter.ts';
import { startTestApp, type TestApp } from '../support/app.ts';
import { countedBy } from '../support/counted.ts';
import { freshIp } from '../support/http-client.ts';
import { latestCode } from '../support/inbox.ts';
import { bearer, newEmail, signIn } from '../support/sign-in.ts';
import { createOwnedApplication, manage } from '../support/tenancy.ts';

// Call budgets (docs/data-model.md, Statistics, keeps the same numbers): the statistics
// route, and the session routes of an application, whose counters ride in their one write.
const counter = new CallCounter();
let app: TestApp;
let owned: Awaited<ReturnType<typeof createOwnedApplication>>;

beforeAll(async () => {
  app = await startTestApp({
    overrides: countedBy(counter),
  });
  counter.watch(app.deps);
  owned = await createOwnedApplication(app);
});
afterAll(() => app.close());

/** Runs one request and returns the DynamoDB commands it sent, in order (no KMS Sign or SES send unless said). */
async function commandsOf(run: () => Promise<{ status: number; text: string }>, kmsSign = 0) {
  counter.reset();
  const response = await run();
  expect(response.status, response.text).toBe(200);
  const calls = counter.snapshot();
  expect({ kmsSign: calls.kmsSign, sesSend: calls.sesSend }).toEqual({ kmsSign, sesSend: 0 });
  return calls.commands;
}

const endUser = (email = newEmail()) => signIn(app, email, { 'x-api-key': owned.publicKey });

describe('AWS calls per request (statistics)', () => {
  it('GET statistics: the caller, then ONE Query (the range) and ONE BatchGetItem (8 session days, the total)', async () => {
    // Prepare
    const path = `/applications/${owned.applicationId}/statistics?from=2026-01-01&to=2026-03-31`;

    // Act
    const byOwner = await commandsOf(() => manage(app, 'GET', path, { token: owned.owner.token }));
    const byKey = await commandsOf(() => manage(app, 'GET', path, { apiKey: owned.secretKey }));

    // Assess: a platform session reads its session, the application and the membership first.
    expect(byOwner).toEqual([
      'BatchGetItemCommand',
      'GetItemCommand',
      'GetItemCommand',
      'QueryCommand',
      'BatchGetItemCommand',
    ]);
    // A key: the key, then its application.
    expect(byKey).toEqual(['GetItemCommand', 'GetItemCommand', 'QueryCommand', 'BatchGetItemCommand']);
  });

  it('verify in an application: still 4 calls, the counters inside its one transaction', async () => {
    // Prepare
    const email = newEmail();
    const headers = { 'x-api-key': owned.publicKey };
    await app.request('POST', '/auth/code/start', { body: { email }, headers, ip: freshIp() });
    const code = await latestCode(email);

    // Act
    const commands = await commandsOf(
      () => app.request('POST', '/auth/code/verify', { body: { email, code }, headers, ip: freshIp() }),
      1,
    );

    // Assess
    expect(commands).toEqual([
      'GetItemCommand',
      'BatchGetItemCommand',
      'UpdateItemCommand',
      'TransactWriteItemsCommand',
    ]);
  });

  it('refresh of an application session: one TransactWriteItems moving its count; one UpdateItem within the same minute or on the platform', async () => {
    // Prepare
    const user = await endUser();
    const platform = await signIn(app);

    // Act
    let token = user.token;
    const refresh = async () => {
      const response = await app.request('POST', '/auth/refresh', { headers: bearer(token) });
      token = response.body.token;
      return response;
    };
    const sameMinute = await commandsOf(refresh, 1);
    app.clock.advance(2 * 60_000);
    const later = await commandsOf(refresh, 1);
    const onPlatform = await commandsOf(
      () => app.request('POST', '/auth/refresh', { headers: bearer(platform.token) }),
      1,
    );

    // Assess
    expect(sameMinute).toEqual(['BatchGetItemCommand', 'UpdateItemCommand']);
    expect(later).toEqual(['BatchGetItemCommand', 'TransactWriteItemsCommand']);
    expect(onPlatform).toEqual(['BatchGetItemCommand', 'UpdateItemCommand']);
  });

  it('revoke-session-by-id: one transaction for the calling session; another is read first', async () => {
    // Prepare
    const email = newEmail();
    const first = await endUser(email);
    const second = await endUser(email);

    // Act
    const other = await commandsOf(() =>
      app.request('POST', '/auth/revoke-session-by-id', {
        headers: bearer(first.token),
        body: { id: second.body.session.id },
      }),
    );
    const unknown = await commandsOf(() =>
      app.request('POST', '/auth/revoke-session-by-id', {
        headers: bearer(first.token),
        body: { id: 'ses_unknown' },
      }),
    );
    const own = await commandsOf(() =>
      app.request('POST', '/auth/revoke-session-by-id', {
        headers: bearer(first.token),
        body: { id: first.body.session.id },
      }),
    );

    // Assess
    expect(other).toEqual(['BatchGetItemCommand', 'GetItemCommand', 'TransactWriteItemsCommand']);
    expect(unknown).toEqual(['BatchGetItemCommand', 'GetItemCommand']);
    expect(own).toEqual(['BatchGetItemCommand', 'TransactWriteItemsCommand']);
  });

  it('revoke-other-sessions and sign-out in an application: the BatchWriteItem becomes one TransactWriteItems', async () => {
    // Prepare
    const email = newEmail();
    const kept = await endUser(email);
    await endUser(email);

    // Act
    const others = await commandsOf(() =>
      app.request('POST', '/auth/revoke-other-sessions', { headers: bearer(kept.token) }),
    );
    const signedOut = await commandsOf(() =>
      app.request('POST', '/auth/sign-out', { headers: bearer(kept.token) }),
    );

    // Assess
    expect(others).toEqual(['BatchGetItemCommand', 'QueryCommand', 'TransactWriteItemsCommand']);
    expect(signedOut).toEqual(['BatchGetItemCommand', 'QueryCommand', 'TransactWriteItemsCommand']);
  });
});
