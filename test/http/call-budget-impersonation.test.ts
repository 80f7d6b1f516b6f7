import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CallCounter } from '../../fixtures/call-counter.ts';
import { PLATFORM_ORIGIN, startTestApp, type TestApp } from '../support/app.ts';
import { countedBy } from '../support/counted.ts';
import { freshIp } from '../support/http-client.ts';
import { bearer, newEmail, signIn } from '../support/sign-in.ts';
import { addSignedInMember, createOwnedApplication, manage } from '../support/tenancy.ts';

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

  it('removing or demoting an admin who impersonates: its running impersonations read, ONE transaction', async () => {
    const { organizationId, applicationId, owner, userId } = await started();
    const admin = await addSignedInMember(app, owner.token, organizationId, 'admin');
    const impersonate = async () =>
      expect(
        (
          await manage(
            app,
            'POST',
            `/applications/${applicationId}/users/${userId}/impersonate`,
            { token: admin.token },
            { reason: 'support ticket' },
          )
        ).status,
      ).toBe(201);
    const member = `/organizations/${organizationId}/members/${admin.userId}`;
    // The caller, the organization and its membership, the admin's membership, its running
    // impersonations (Query, then their records), and the change with their ends.
    const ending = [
      'BatchGetItemCommand',
      'BatchGetItemCommand',
      'GetItemCommand',
      'QueryCommand',
      'BatchGetItemCommand',
      'TransactWriteItemsCommand',
    ];
    await impersonate();
    const demoted = await measure(() =>
      manage(app, 'PATCH', member, { token: owner.token }, { role: 'member' }),
    );
    expectCalls(demoted, { commands: ending, kmsSign: 0 });
    await manage(app, 'PATCH', member, { token: owner.token }, { role: 'admin' });
    await impersonate();
    expectCalls(await measure(() => manage(app, 'DELETE', member, { token: owner.token }), 204), {
      commands: ending,
      kmsSign: 0,
    });
  });

  it('deleting an application with a running impersonation: its record read, ended in the delete', async () => {
    const { applicationId, owner } = await started();
    const calls = await measure(
      () => manage(app, 'DELETE', `/applications/${applicationId}`, { token: owner.token }),
      204,
    );
    expectCalls(calls, {
      commands: [
        'BatchGetItemCommand',
        'GetItemCommand',
        'GetItemCommand',
        'QueryCommand',
        'BatchGetItemCommand',
        'QueryCommand',
        'TransactWriteItemsCommand',
      ],
      kmsSign: 0,
    });
  });

  it('sign-out with the session and impersonation cookies: both read, the impersonation ended', async () => {
    const owned = await createOwnedApplication(app);
    const user = await signIn(app, newEmail(), { 'x-api-key': owned.publicKey });
    const support = await signIn(app, newEmail(), { origin: PLATFORM_ORIGIN });
    await manage(
      app,
      'POST',
      `/organizations/${owned.organizationId}/members`,
      { token: owned.owner.token },
      { email: support.email, role: 'admin' },
    );
    await manage(app, 'POST', `/invitations/${owned.organizationId}/accept`, { token: support.token });
    const started = await manage(
      app,
      'POST',
      `/applications/${owned.applicationId}/users/${user.body.user.id}/impersonate`,
      { token: support.token },
      { reason: 'support ticket' },
    );
    const cookie = `doorcode.session_token=${support.token}; doorcode.impersonation_token=${started.body.token}`;
    const calls = await measure(() =>
      app.request('POST', '/auth/sign-out', { headers: { cookie, origin: PLATFORM_ORIGIN }, ip: freshIp() }),
    );
    // The impersonation cookie's session, the session cookie's, the impersonation's end, then the
    // support user's sessions read and deleted (platform sessions: no counts).
    expectCalls(calls, {
      commands: [
        'BatchGetItemCommand',
        'BatchGetItemCommand',
        'TransactWriteItemsCommand',
        'QueryCommand',
        'BatchWriteItemCommand',
      ],
      kmsSign: 0,
    });
  });

  it('audit list: the caller, application and membership reads, then 1 Query a page (its entries and one more)', async () => {
    // The setup's two keys and the impersonation: three entries.
    const { applicationId, owner } = await started();
    const audit = `/applications/${applicationId}/audit`;
    const onePage = {
      commands: ['BatchGetItemCommand', 'GetItemCommand', 'GetItemCommand', 'QueryCommand'],
      kmsSign: 0,
    };
    const pages: { page: { hasMore: boolean; nextCursor: string | null } }[] = [];
    const read = async (query: string) => {
      const calls = await measure(async () => {
        const answer = await manage(app, 'GET', `${audit}?${query}`, { token: owner.token });
        pages.push(answer.body);
        return answer;
      });
      expectCalls(calls, onePage);
    };
    // The whole trail; its first page of two, whose third entry read tells there is more; the next.
    await read('limit=20');
    await read('limit=2');
    await read(`limit=2&cursor=${pages[1]?.page.nextCursor}`);
    // A filter on a trail shorter than a page: the one Query reads it all.
    await read('action=impersonation.started');
    expect(pages.map((page) => page.page.hasMore)).toEqual([false, true, false, false]);
  });

  it('audit list with a filter that matches little: at most 5 Queries, then the cursor goes on', async () => {
    const { applicationId, owner } = await started();
    // 8 keys more: 11 entries, none an impersonation.ended.
    for (let n = 0; n < 8; n++) {
      const key = await manage(
        app,
        'POST',
        '/api-keys',
        { token: owner.token },
        { applicationId, type: 'secret' },
      );
      expect(key.status, key.text).toBe(201);
    }
    const audit = `/applications/${applicationId}/audit?limit=1&action=impersonation.ended`;
    const reads = (queries: number) => ({
      commands: [
        'BatchGetItemCommand',
        'GetItemCommand',
        'GetItemCommand',
        ...Array.from({ length: queries }, () => 'QueryCommand'),
      ],
      kmsSign: 0,
    });
    let first: { items: unknown[]; page: { hasMore: boolean; nextCursor: string | null } } | undefined;
    // Each Query reads 2 entries (the page of 1 and one more): 5 read 10 of the 11, and stop.
    const stopped = await measure(async () => {
      const answer = await manage(app, 'GET', audit, { token: owner.token });
      first = answer.body;
      return answer;
    });
    expectCalls(stopped, reads(5));
    expect(first?.items).toEqual([]);
    expect(first?.page.hasMore).toBe(true);
    let rest: typeof first;
    const finished = await measure(async () => {
      const answer = await manage(app, 'GET', `${audit}&cursor=${first?.page.nextCursor}`, {
        token: owner.token,
      });
      rest = answer.body;
      return answer;
    });
    expectCalls(finished, reads(1));
    expect(rest).toEqual({ items: [], page: { limit: 1, hasMore: false, nextCursor: null } });
  });
});
