import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../support/app.ts';
import { seedSession } from '../support/seed-sessions.ts';
import { bearer, newEmail, signIn } from '../support/sign-in.ts';
import { createOwnedApplication, manage } from '../support/tenancy.ts';

// A user with sessions over many UTC days (TTL deletes late, so expired records stay) and more than
// a batch of them: ending them deletes each, 25 to a BatchWriteItem, and the statistics aggregator
// uncounts from the table's stream each one the statistics still count, exactly once
// (docs/data-model.md, Statistics).

const HOUR = 3_600_000;

let app: TestApp;
beforeAll(async () => {
  app = await startTestApp({ statistics: true });
  app.clock.set(Date.UTC(2026, 10, 1, 0, 30, 0));
});
afterAll(() => app.close());

type Owned = { applicationId: string; publicKey: string };

/**
 * One user's sessions, one at each of `times` (offsets from now, ms; the clock ends at the last):
 * the first and the last are real sign-ins (the first creates the account, the last gives the token
 * the test uses), the ones between are written through the store as a sign-in writes them
 * (test/support/seed-sessions.ts). What is checked is how they end, not how they began.
 */
async function sessionsAt(owned: Owned, times: readonly number[]) {
  const email = newEmail();
  const start = app.clock.now();
  let last = { userId: '', token: '' };
  for (const [n, at] of times.entries()) {
    app.clock.set(start + at);
    if (n === 0 || n === times.length - 1) {
      const signed = await signIn(app, email, { 'x-api-key': owned.publicKey });
      last = { userId: signed.body.user.id as string, token: signed.token };
    } else {
      await seedSession(app, { userId: last.userId, email }, owned.applicationId);
    }
  }
  return last;
}

/** `count` sessions of one user, `every` ms apart (then the clock moves on by `every`). */
async function sessionsOf(owned: Owned, count: number, every: number) {
  const user = await sessionsAt(
    owned,
    Array.from({ length: count }, (_, n) => n * every),
  );
  app.clock.advance(every);
  return user;
}

/** 99 sessions of one user over 11 UTC days: 9 a day, 2 hours apart. */
async function elevenDays(owned: Owned) {
  // 9 sessions 2 hours apart, then 6 more hours: each day's first session 24 hours after the last day's.
  const times = Array.from({ length: 99 }, (_, n) => Math.floor(n / 9) * 24 * HOUR + (n % 9) * 2 * HOUR);
  const user = await sessionsAt(owned, times);
  // Off the minute the oldest live session ends in: the statistics count it until that minute ends.
  app.clock.advance(2 * HOUR + 6 * HOUR + 60_000);
  return user;
}

async function activeSessions(owned: { applicationId: string; secretKey: string }): Promise<number> {
  await app.caughtUp();
  const stats = await manage(app, 'GET', `/applications/${owned.applicationId}/statistics`, {
    apiKey: owned.secretKey,
  });
  expect(stats.status).toBe(200);
  return stats.body.totals.activeSessions as number;
}

/** The user's live sessions, as GET /auth/list-sessions shows them. */
async function liveSessions(token: string, publicKey: string): Promise<number> {
  const listed = await app.request('GET', '/auth/list-sessions', {
    headers: bearer(token, { 'x-api-key': publicKey }),
  });
  expect(listed.status).toBe(200);
  return listed.body.items.length as number;
}

// Each test signs in and seeds about a hundred sessions: on a loaded machine more than the 30 s default.
describe('ending the sessions of a user with 99 session records over 11 UTC days', {
  timeout: 120_000,
}, () => {
  it('POST .../revoke-sessions answers 200 and the active sessions drop to zero', async () => {
    // Prepare
    const owned = await createOwnedApplication(app);
    const user = await elevenDays(owned);
    const live = await liveSessions(user.token, owned.publicKey);
    expect(live).toBeGreaterThan(50);
    expect(await activeSessions(owned)).toBe(live);
    // Act
    const path = `/applications/${owned.applicationId}/users/${user.userId}/revoke-sessions`;
    const revoked = await manage(app, 'POST', path, { apiKey: owned.secretKey });
    // Assess
    expect(revoked.status, revoked.text).toBe(200);
    expect(revoked.body.count).toBe(live);
    expect(await activeSessions(owned)).toBe(0);
    const old = await app.request('GET', '/auth/session', { headers: bearer(user.token) });
    expect(old.status).toBe(401);
  });

  it('POST .../disable answers 200 and the active sessions drop to zero', async () => {
    // Prepare
    const owned = await createOwnedApplication(app);
    const user = await elevenDays(owned);
    expect(await activeSessions(owned)).toBe(await liveSessions(user.token, owned.publicKey));
    // Act
    const disabled = await manage(
      app,
      'POST',
      `/applications/${owned.applicationId}/users/${user.userId}/disable`,
      {
        apiKey: owned.secretKey,
      },
    );
    // Assess
    expect(disabled.status, disabled.text).toBe(200);
    expect(await activeSessions(owned)).toBe(0);
  });

  it('POST /auth/sign-out answers 200 and the active sessions drop to zero', async () => {
    // Prepare
    const owned = await createOwnedApplication(app);
    const user = await elevenDays(owned);
    expect(await activeSessions(owned)).toBe(await liveSessions(user.token, owned.publicKey));
    // Act
    const signedOut = await app.request('POST', '/auth/sign-out', {
      headers: bearer(user.token, { 'x-api-key': owned.publicKey }),
    });
    // Assess
    expect(signedOut.status, signedOut.text).toBe(200);
    expect(await activeSessions(owned)).toBe(0);
  });

  it('ends more live sessions than one batch holds, each uncounted exactly once', async () => {
    // Prepare: 120 live sessions over 6 UTC days, one an hour.
    const owned = await createOwnedApplication(app);
    const user = await sessionsOf(owned, 120, HOUR);
    expect(await liveSessions(user.token, owned.publicKey)).toBe(120);
    expect(await activeSessions(owned)).toBe(120);
    // Act
    const path = `/applications/${owned.applicationId}/users/${user.userId}/revoke-sessions`;
    const revoked = await manage(app, 'POST', path, { apiKey: owned.secretKey });
    // Assess
    expect(revoked.status, revoked.text).toBe(200);
    expect(revoked.body.count).toBe(120);
    expect(await activeSessions(owned)).toBe(0);
  });
});
