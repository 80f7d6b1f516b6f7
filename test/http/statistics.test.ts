import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { STATISTICS_MAX_DELAY_SECONDS } from '../../shared/tenancy/statistics.ts';
import { startTestApp, type TestApp } from '../support/app.ts';
import { freshIp } from '../support/http-client.ts';
import { latestCode } from '../support/inbox.ts';
import { bearer, newEmail, signIn } from '../support/sign-in.ts';
import { addSignedInMember, createOwnedApplication, manage } from '../support/tenancy.ts';

const MINUTE = 60_000;
const DAY = 24 * 60 * MINUTE;

let app: TestApp;

beforeAll(async () => {
  app = await startTestApp({ statistics: true });
  // A fixed start, late in a UTC day, so the tests cross midnight; tests only move the clock forward.
  app.clock.set(Date.UTC(2026, 10, 23, 23, 0, 30));
});
afterAll(() => app.close());

const dayOf = (ms: number) => new Date(ms).toISOString().slice(0, 10);
/** The first second of the next UTC day, plus `ms`. */
const nextMidnight = (ms: number) => Math.ceil(ms / DAY) * DAY;

/**
 * Reads the statistics with the application's secret key (it never expires, whatever the clock),
 * once the aggregator has counted every change so far.
 */
async function statistics(secretKey: string, applicationId: string, query = '') {
  await app.caughtUp();
  const response = await manage(app, 'GET', `/applications/${applicationId}/statistics${query}`, {
    apiKey: secretKey,
  });
  expect(response.status, response.text).toBe(200);
  return response.body;
}

/** An end user's sign-in to the application of `publicKey`. */
const signInTo = (publicKey: string, email = newEmail()) => signIn(app, email, { 'x-api-key': publicKey });

/**
 * The headless path (docs/api.md, "The headless path and the request phrase"): start and approve
 * with the key, then the device code's poll.
 */
async function signInByPoll(publicKey: string, email = newEmail()) {
  const headers = { 'x-api-key': publicKey };
  const start = await app.request('POST', '/auth/code/start', { body: { email }, headers, ip: freshIp() });
  const code = await latestCode(email);
  await app.request('POST', '/auth/code/approve', { body: { email, code }, headers, ip: freshIp() });
  const poll = await app.request('POST', '/auth/code/poll', {
    body: { deviceCode: start.body.deviceCode },
    ip: freshIp(),
  });
  expect(poll.status, poll.text).toBe(200);
}

describe('GET /applications/{applicationId}/statistics', () => {
  it('counts new users and sign-ins (verify and poll) per UTC day, across midnight, and only those of its application', async () => {
    // Prepare
    const { applicationId, publicKey, secretKey } = await createOwnedApplication(app);
    const other = await createOwnedApplication(app, 'Other Notes');
    const day1 = dayOf(app.clock.now());
    const [a, b] = [newEmail(), newEmail()];
    await signInTo(publicKey, a);
    await signInTo(publicKey, b);
    await signInTo(publicKey, a);
    await signInTo(other.publicKey, a);
    app.clock.set(nextMidnight(app.clock.now()) + MINUTE);
    const day2 = dayOf(app.clock.now());
    await signInTo(publicKey);
    await signInTo(publicKey, b);
    await signInByPoll(publicKey);
    // A platform sign-in is no application's.
    await signIn(app);

    // Act
    const stats = await statistics(secretKey, applicationId, `?from=${day1}&to=${day2}`);
    const byDefault = await statistics(secretKey, applicationId);

    // Assess
    expect(day2).not.toBe(day1);
    expect(stats).toEqual({
      range: { from: day1, to: day2 },
      totals: { users: 4, newUsers: 4, signIns: 6, activeSessions: 6 },
      days: [
        { date: day1, newUsers: 2, signIns: 3 },
        { date: day2, newUsers: 2, signIns: 3 },
      ],
      freshness: { maxDelaySeconds: STATISTICS_MAX_DELAY_SECONDS },
    });
    // The last 30 days by default, every day present, zeros included.
    expect(byDefault.range.to).toBe(day2);
    expect(byDefault.days).toHaveLength(30);
    expect(byDefault.days.at(-2)).toEqual({ date: day1, newUsers: 2, signIns: 3 });
    expect(byDefault.days.at(0)).toEqual({ date: byDefault.range.from, newUsers: 0, signIns: 0 });
    expect(byDefault.totals).toEqual(stats.totals);
    const others = await statistics(other.secretKey, other.applicationId, `?from=${day1}&to=${day2}`);
    expect(others.totals).toEqual({ users: 1, newUsers: 1, signIns: 1, activeSessions: 1 });
  });

  it('follows active sessions through refresh, revocation and their 7-day expiry', async () => {
    // Prepare
    const { applicationId, publicKey, secretKey } = await createOwnedApplication(app);
    const active = async () => (await statistics(secretKey, applicationId)).totals.activeSessions;
    const start = app.clock.now();
    const email = newEmail();
    const first = await signInTo(publicKey, email);
    const second = await signInTo(publicKey, email);
    await signInTo(publicKey);
    const afterSignIns = await active();

    // Act: a day later the first session is refreshed (and counted under today), the second revoked.
    app.clock.set(start + DAY);
    const refreshed = await app.request('POST', '/auth/refresh', { headers: bearer(first.token) });
    const afterRefresh = await active();
    const revoked = await app.request('POST', '/auth/revoke-session-by-id', {
      headers: bearer(refreshed.body.token),
      body: { id: second.body.session.id },
    });
    const afterRevoke = await active();
    // The third session ends 7 days after its sign-in; the refreshed one 7 days after its refresh.
    app.clock.set(start + 7 * DAY - 2 * MINUTE);
    const beforeExpiry = await active();
    app.clock.set(start + 7 * DAY + MINUTE);
    const afterExpiry = await active();
    app.clock.set(start + 8 * DAY + MINUTE);
    const afterBothExpired = await active();

    // Assess
    expect(refreshed.status).toBe(200);
    expect(revoked.status).toBe(200);
    expect([afterSignIns, afterRefresh, afterRevoke]).toEqual([3, 3, 2]);
    expect([beforeExpiry, afterExpiry, afterBothExpired]).toEqual([2, 1, 0]);
  });

  it('counts a session ending within the current UTC minute until that minute ends, as documented', async () => {
    // Prepare: a sign-in 30 s into a minute ends 7 days later, 30 s into the same minute of day.
    app.clock.set(Math.ceil(app.clock.now() / MINUTE) * MINUTE + 30_000);
    const { applicationId, publicKey, secretKey } = await createOwnedApplication(app);
    const signedIn = await signInTo(publicKey);
    const ends = Date.parse(signedIn.body.session.expiresAt);
    const active = async () => (await statistics(secretKey, applicationId)).totals.activeSessions;

    // Act
    app.clock.set(ends + 10_000);
    const sameMinute = await active();
    const session = await app.request('GET', '/auth/session', { headers: bearer(signedIn.token) });
    app.clock.set(ends + 30_000);
    const nextMinute = await active();

    // Assess
    expect(session.status).toBe(401);
    expect([sameMinute, nextMinute]).toEqual([1, 0]);
  });

  it('uncounts the sessions revoke-other-sessions and sign-out end', async () => {
    // Prepare
    const { applicationId, publicKey, secretKey } = await createOwnedApplication(app);
    const active = async () => (await statistics(secretKey, applicationId)).totals.activeSessions;
    const email = newEmail();
    const kept = await signInTo(publicKey, email);
    await signInTo(publicKey, email);
    await signInTo(publicKey, email);
    const bystander = await signInTo(publicKey);
    const before = await active();

    // Act
    const others = await app.request('POST', '/auth/revoke-other-sessions', { headers: bearer(kept.token) });
    const afterOthers = await active();
    const signedOut = await app.request('POST', '/auth/sign-out', { headers: bearer(kept.token) });
    const afterSignOut = await active();
    const ownRevoked = await app.request('POST', '/auth/revoke-session-by-id', {
      headers: bearer(bystander.token),
      body: { id: bystander.body.session.id },
    });
    const afterOwnRevoked = await active();

    // Assess
    expect([others.status, signedOut.status, ownRevoked.status]).toEqual([200, 200, 200]);
    expect(others.body.count).toBe(2);
    expect([before, afterOthers, afterSignOut, afterOwnRevoked]).toEqual([4, 2, 1, 0]);
  });

  describe('range', () => {
    let target: Awaited<ReturnType<typeof createOwnedApplication>>;
    beforeAll(async () => {
      target = await createOwnedApplication(app);
    });
    const get = (query: string) =>
      manage(app, 'GET', `/applications/${target.applicationId}/statistics${query}`, {
        apiKey: target.secretKey,
      });

    it('takes 90 days, both ends included', async () => {
      // Act
      const response = await get('?from=2026-01-01&to=2026-03-31');

      // Assess
      expect(response.status).toBe(200);
      expect(response.body.days).toHaveLength(90);
      expect(response.body.days.at(-1)).toEqual({ date: '2026-03-31', newUsers: 0, signIns: 0 });
    });

    it.each([
      ['91 days', '?from=2026-01-01&to=2026-04-01', 'to'],
      ['91 days back to today by default', '?from=2020-01-01', 'from'],
      ['from after to', '?from=2026-03-02&to=2026-03-01', 'from'],
      ['a malformed from', '?from=2026-1-01&to=2026-01-31', 'from'],
      ['a date that does not exist', '?from=2026-02-01&to=2026-02-30', 'to'],
      ['not a date at all', '?to=yesterday', 'to'],
    ])('refuses %s with 400 naming the field', async (_case, query, field) => {
      // Act
      const response = await get(query);

      // Assess
      expect(response.status).toBe(400);
      expect(response.body.error.code).toBe('VALIDATION_ERROR');
      expect(response.body.error.details.issues.map((issue: { path: string }) => issue.path)).toEqual([
        field,
      ]);
    });
  });

  describe('who may read', () => {
    let target: Awaited<ReturnType<typeof createOwnedApplication>>;
    const path = () => `/applications/${target.applicationId}/statistics`;
    beforeAll(async () => {
      target = await createOwnedApplication(app);
    });

    it('lets a member of the owning organization and the secret key read', async () => {
      // Prepare
      const member = await addSignedInMember(app, target.owner.token, target.organizationId, 'member');

      // Act
      const byMember = await manage(app, 'GET', path(), { token: member.token });
      const byOwner = await manage(app, 'GET', path(), { token: target.owner.token });
      const byKey = await manage(app, 'GET', path(), { apiKey: target.secretKey });

      // Assess
      expect([byMember.status, byOwner.status, byKey.status]).toEqual([200, 200, 200]);
    });

    it('refuses the public key and an end user of the application with 403', async () => {
      // Prepare
      const endUser = await signInTo(target.publicKey);

      // Act
      const byPublicKey = await manage(app, 'GET', path(), { apiKey: target.publicKey });
      const byEndUser = await manage(app, 'GET', path(), { token: endUser.token });

      // Assess
      expect([byPublicKey.status, byEndUser.status]).toEqual([403, 403]);
      expect(byPublicKey.body.error.code).toBe('FORBIDDEN');
    });

    it("answers 404 to another organization's owner and key, and 401 without a credential", async () => {
      // Prepare
      const stranger = await createOwnedApplication(app, 'Stranger Notes');

      // Act
      const byStranger = await manage(app, 'GET', path(), { token: stranger.owner.token });
      const byStrangerKey = await manage(app, 'GET', path(), { apiKey: stranger.secretKey });
      const anonymous = await app.request('GET', path());

      // Assess
      expect([byStranger.status, byStrangerKey.status, anonymous.status]).toEqual([404, 404, 401]);
    });
  });
});
