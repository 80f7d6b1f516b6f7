import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CallCounter } from '../../bench/call-counter.ts';
import { PLATFORM_ORIGIN, startTestApp, type TestApp } from '../support/app.ts';
import { countedBy } from '../support/counted.ts';
import { freshIp } from '../support/http-client.ts';
import { bearer, newEmail, signIn } from '../support/sign-in.ts';
import { createOwnedApplication, manage } from '../support/tenancy.ts';

// Per-route AWS call budgets of impersonation and the audit trail (docs/data-model.md keeps the
// same numbers): a BatchGetItem or TransactWriteItems counts as one call.
const counter = new CallCounter();
let app: TestApp;

beforeAll(async () => {
  app = await startTestApp({
    overrides: countedBy(counter),
  });
  counter.watch(app.deps);
});
afterAll(() => app.close());

async function measure(run: () => Promise<{ status: number; text?: string }>, expectedStatus = 200) {
  counter.reset();
  const response = await run();
  expect(response.status, response.text).toBe(expectedStatus);
  return counter.snapshot();
}

function expectCalls(
  calls: ReturnType<CallCounter['snapshot']>,
  budget: { commands: string[]; kmsSign: number },
) {
  expect(calls).toEqual({ dynamodb: budget.commands.length, ...budget, sesSend: 0 });
}

async function started() {
  const owned = await createOwnedApplication(app);
  const user = await signIn(app, newEmail(), { 'x-api-key': owned.publicKey });
  const answer = await manage(
    app,
    'POST',
    `/applications/${owned.applicationId}/users/${user.body.user.id}/impersonate`,
    { token: owned.owner.token },
    { reason: 'support ticket' },
  );
  return {
    ...owned,
    userId: user.body.user.id as string,
    ...(answer.body as { token: string; impersonation: { id: string } }),
  };
}

describe('AWS calls per impersonation request', () => {
  it('start: the caller, application, membership and user reads, ONE transaction, 1 KMS Sign', async () => {
    const owned = await createOwnedApplication(app);
    const user = await signIn(app, newEmail(), { 'x-api-key': owned.publicKey });
    const calls = await measure(
      () =>
        manage(
          app,
          'POST',
          `/applications/${owned.applicationId}/users/${user.body.user.id}/impersonate`,
          { token: owned.owner.token },
          { reason: 'support ticket' },
        ),
      201,
    );
    expectCalls(calls, {
      commands: [
        'BatchGetItemCommand',
        'GetItemCommand',
        'GetItemCommand',
        'GetItemCommand',
        'TransactWriteItemsCommand',
      ],
      kmsSign: 1,
    });
  });

  it('GET /auth/session with the impersonation cookie or its Bearer token: 1 BatchGetItem', async () => {
    const { token } = await started();
    const byCookie = await measure(() =>
      app.request('GET', '/auth/session', {
        headers: { cookie: `doorcode.impersonation_token=${token}`, origin: PLATFORM_ORIGIN },
      }),
    );
    expectCalls(byCookie, { commands: ['BatchGetItemCommand'], kmsSign: 0 });
    const byBearer = await measure(() => app.request('GET', '/auth/session', { headers: bearer(token) }));
    expectCalls(byBearer, { commands: ['BatchGetItemCommand'], kmsSign: 0 });
  });

  it('GET /auth/session without an impersonation cookie costs nothing more', async () => {
    const { token } = await signIn(app);
    const calls = await measure(() => app.request('GET', '/auth/session', { headers: bearer(token) }));
    expectCalls(calls, { commands: ['BatchGetItemCommand'], kmsSign: 0 });
  });

  it('refresh of an impersonated session is refused after the session read alone', async () => {
    const { token } = await started();
    const calls = await measure(() => app.request('POST', '/auth/refresh', { headers: bearer(token) }), 403);
    expectCalls(calls, { commands: ['BatchGetItemCommand'], kmsSign: 0 });
  });

  it('end: the record read and ONE transaction; again: the record read alone', async () => {
    const { token, impersonation } = await started();
    const end = () =>
      app.request('POST', `/impersonation/${impersonation.id}/end`, {
        headers: bearer(token),
        ip: freshIp(),
      });
    expectCalls(await measure(end), {
      commands: ['GetItemCommand', 'TransactWriteItemsCommand'],
      kmsSign: 0,
    });
    expectCalls(await measure(end), { commands: ['GetItemCommand'], kmsSign: 0 });
  });

  it('end refused (another token) or unknown: the record read alone', async () => {
    const { token, impersonation, owner } = await started();
    const refused = await measure(
      () => app.request('POST', `/impersonation/${impersonation.id}/end`, { headers: bearer(owner.token) }),
      403,
    );
    expectCalls(refused, { commands: ['GetItemCommand'], kmsSign: 0 });
    const unknown = await measure(
      () => app.request('POST', '/impersonation/imp_unknown/end', { headers: bearer(token) }),
      404,
    );
    expectCalls(unknown, { commands: ['GetItemCommand'], kmsSign: 0 });
  });

  it('audit list: the caller, application and membership reads, then 1 Query (counter and entries)', async () => {
    const { applicationId, owner } = await started();
    const calls = await measure(() =>
      manage(app, 'GET', `/applications/${applicationId}/audit`, { token: owner.token }),
    );
    expectCalls(calls, {
      commands: ['BatchGetItemCommand', 'GetItemCommand', 'GetItemCommand', 'QueryCommand'],
      kmsSign: 0,
    });
  });
});
