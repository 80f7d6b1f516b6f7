import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../support/app.ts';
import { freshIp } from '../support/http-client.ts';
import { bearer, newEmail, signIn } from '../support/sign-in.ts';
import { createOwnedApplication, manage } from '../support/tenancy.ts';

// docs/api.md, Impersonation: every start and end of an impersonation is in the audit trail, in the same
// transaction as its session. An impersonated session can also end by sign-out, by revoking itself,
// or by the application's managers ending the user's sessions: each ends the impersonation as
// POST /impersonation/{id}/end does. A disabled user cannot be impersonated.

let app: TestApp;
beforeAll(async () => {
  app = await startTestApp();
});
afterAll(() => app.close());

const REASON = 'Ticket 7: the invoices page is empty';

async function impersonatedUser() {
  const owned = await createOwnedApplication(app);
  const endUser = await signIn(app, newEmail(), { 'x-api-key': owned.publicKey });
  const userId = endUser.body.user.id as string;
  const path = `/applications/${owned.applicationId}/users/${userId}`;
  const started = await manage(
    app,
    'POST',
    `${path}/impersonate`,
    { token: owned.owner.token },
    { reason: REASON },
  );
  expect(started.status, started.text).toBe(201);
  return {
    owned,
    path,
    userToken: endUser.token,
    token: started.body.token as string,
    impersonationId: started.body.impersonation.id as string,
  };
}

/**
 * The trail, newest first: the actions of its impersonation entries, and the ids of all its entries
 * (the setup's keys and a manager's own change are recorded too). One page: these tests write few.
 */
async function trail(owned: { applicationId: string; owner: { token: string } }) {
  const listed = await manage(app, 'GET', `/applications/${owned.applicationId}/audit?limit=100`, {
    token: owned.owner.token,
  });
  expect(listed.status, listed.text).toBe(200);
  expect(listed.body.page).toEqual({ limit: 100, hasMore: false, nextCursor: null });
  const items = listed.body.items as { id: string; action: string }[];
  return {
    impersonations: items
      .filter((entry) => entry.action.startsWith('impersonation.'))
      .map((entry) => entry.action),
    ids: items.map((entry) => entry.id),
  };
}

const status = async (token: string) =>
  (await app.request('GET', '/auth/session', { headers: bearer(token) })).status;

/** The record, as the idempotent end answers it with the impersonation's own token. */
async function record(impersonationId: string, token: string) {
  const ended = await app.request('POST', `/impersonation/${impersonationId}/end`, {
    headers: bearer(token),
    ip: freshIp(),
  });
  expect(ended.status).toBe(200);
  return ended.body;
}

/** The impersonation ended at the current instant, recorded once: one end, not two. */
async function expectEndedNow(o: Awaited<ReturnType<typeof impersonatedUser>>) {
  expect(await status(o.token)).toBe(401);
  // The injected clock stands still: both entries share their time, so their order is the ids'.
  const before = await trail(o.owned);
  expect([...before.impersonations].sort()).toEqual(['impersonation.ended', 'impersonation.started']);
  const ended = await record(o.impersonationId, o.token);
  expect(ended.endedAt).toBe(new Date(app.clock.now()).toISOString());
  // Ending it again wrote nothing.
  expect(await trail(o.owned)).toEqual(before);
}

describe('POST /applications/{applicationId}/users/{userId}/impersonate of a disabled user', () => {
  it('answers 403 FORBIDDEN and writes nothing', async () => {
    // Prepare
    const owned = await createOwnedApplication(app);
    const endUser = await signIn(app, newEmail(), { 'x-api-key': owned.publicKey });
    const path = `/applications/${owned.applicationId}/users/${endUser.body.user.id}`;
    expect((await manage(app, 'POST', `${path}/disable`, { apiKey: owned.secretKey })).status).toBe(200);
    const before = await trail(owned);
    // Act
    const started = await manage(
      app,
      'POST',
      `${path}/impersonate`,
      { token: owned.owner.token },
      { reason: REASON },
    );
    // Assess
    expect(started.status).toBe(403);
    expect(started.body.error.code).toBe('FORBIDDEN');
    expect(before.impersonations).toEqual([]);
    expect(await trail(owned)).toEqual(before);
  });
});

describe('an impersonated session ended by another path than its end route', () => {
  it('POST /auth/sign-out with its token ends the impersonation, and only it', async () => {
    const o = await impersonatedUser();
    const signedOut = await app.request('POST', '/auth/sign-out', { headers: bearer(o.token) });
    expect(signedOut.status).toBe(200);
    await expectEndedNow(o);
    expect(await status(o.userToken)).toBe(200);
  });

  it('POST /auth/revoke-session-by-id naming itself ends the impersonation', async () => {
    const o = await impersonatedUser();
    const info = await app.request('GET', '/auth/session', { headers: bearer(o.token) });
    const revoked = await app.request('POST', '/auth/revoke-session-by-id', {
      body: { id: info.body.session.id },
      headers: bearer(o.token),
    });
    expect(revoked.status).toBe(200);
    await expectEndedNow(o);
  });

  it("the user's own sign-out (every session) ends the impersonation", async () => {
    const o = await impersonatedUser();
    const signedOut = await app.request('POST', '/auth/sign-out', { headers: bearer(o.userToken) });
    expect(signedOut.status).toBe(200);
    await expectEndedNow(o);
  });

  for (const [route, method, suffix] of [
    ['POST .../revoke-sessions', 'POST', '/revoke-sessions'],
    ['POST .../disable', 'POST', '/disable'],
    ['DELETE .../users/{userId}', 'DELETE', ''],
  ] as const) {
    it(`${route} by a manager ends the impersonation`, async () => {
      const o = await impersonatedUser();
      const ended = await manage(app, method, `${o.path}${suffix}`, { apiKey: o.owned.secretKey });
      expect(ended.status).toBeLessThan(300);
      await expectEndedNow(o);
    });
  }
});
