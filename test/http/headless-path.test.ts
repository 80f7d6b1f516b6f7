import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../support/app.ts';
import { expectError } from '../support/expect-error.ts';
import { freshIp } from '../support/http-client.ts';
import { latestCode } from '../support/inbox.ts';
import { bearer, newEmail } from '../support/sign-in.ts';
import { createTestApplication } from '../support/tenancy.ts';

let app: TestApp;
beforeAll(async () => {
  app = await startTestApp();
});
afterAll(() => app.close());

const SECOND = 1000;

describe('the headless path (POST /auth/code/poll)', () => {
  it('start, poll while pending, slow down, approve by a human, poll for the session once', async () => {
    // Prepare: the agent starts and keeps its device code; one client address for every poll.
    const email = newEmail();
    const agentIp = freshIp();
    const poll = (headers: Record<string, string> = {}) =>
      app.request('POST', '/auth/code/poll', { body: { deviceCode }, headers, ip: agentIp });
    const start = await app.request('POST', '/auth/code/start', { body: { email }, ip: agentIp });
    expect(start.status).toBe(200);
    const { deviceCode, interval } = start.body;
    expect(interval).toBe(5);

    // Act + Assess: first poll, still pending.
    const pending = await poll();
    expectError(pending, 428, 'UNPROCESSABLE');
    expect(pending.body.error.details).toEqual({ reason: 'authorization_pending', interval: 5 });

    // Polling again at once is too fast: slow_down, the interval grows by 5 s.
    const tooFast = await poll();
    expectError(tooFast, 429, 'RATE_LIMITED');
    expect(tooFast.body.error.details).toEqual({ reason: 'slow_down', interval: 10 });
    expect(tooFast.headers['retry-after']).toBe('10');

    // 5 s later is still early: the grown interval (10 s) is kept, not reset to 5 s. Being early
    // again is another slow_down, which grows the interval again (RFC 8628 §3.5: "increased by
    // 5 seconds for this and all subsequent requests").
    app.clock.advance(5 * SECOND);
    const stillEarly = await poll();
    expectError(stillEarly, 429, 'RATE_LIMITED');
    expect(stillEarly.body.error.details).toEqual({ reason: 'slow_down', interval: 15 });
    expect(stillEarly.headers['retry-after']).toBe('15');

    // Waiting the whole interval is on time again: pending, and the interval stays grown.
    app.clock.advance(15 * SECOND);
    const onTime = await poll();
    expectError(onTime, 428, 'UNPROCESSABLE');
    expect(onTime.body.error.details).toEqual({ reason: 'authorization_pending', interval: 15 });

    // A human approves with the emailed code (no key: a platform request).
    const approve = await app.request('POST', '/auth/code/approve', {
      body: { email, code: await latestCode(email) },
      ip: freshIp(),
    });
    expect(approve.status).toBe(200);
    expect(approve.body).toEqual({ approved: true });
    expect(approve.headers['set-auth-token']).toBeUndefined();

    // The agent's next on-time poll gets the session.
    app.clock.advance(15 * SECOND);
    const session = await poll();
    expect(session.status).toBe(200);
    expect(Object.keys(session.body).sort()).toEqual(['session', 'token', 'user']);
    expect(session.body.user).toMatchObject({ email, emailVerified: true });
    expect(session.body.session.applicationId).toBeNull();
    expect(session.headers['set-auth-token']).toBe(session.body.token);
    const info = await app.request('GET', '/auth/session', { headers: bearer(session.body.token) });
    expect(info.status).toBe(200);
    expect(info.body).toMatchObject({ user: session.body.user, session: session.body.session });

    // The device code works once.
    app.clock.advance(15 * SECOND);
    expectError(await poll(), 400, 'FORBIDDEN');
  });

  it.each([63, 65])('refuses a deviceCode of %i characters with 400 VALIDATION_ERROR', async (length) => {
    // Act
    const response = await app.request('POST', '/auth/code/poll', {
      body: { deviceCode: 'a'.repeat(length) },
      ip: freshIp(),
    });

    // Assess
    expectError(response, 400, 'VALIDATION_ERROR');
    expect(response.body.error.details.issues).toEqual([{ path: 'deviceCode', message: expect.any(String) }]);
  });

  it('answers 400 FORBIDDEN for an unknown 64-hex deviceCode', async () => {
    // Act
    const response = await app.request('POST', '/auth/code/poll', {
      body: { deviceCode: 'ab'.repeat(32) },
      ip: freshIp(),
    });

    // Assess
    expectError(response, 400, 'FORBIDDEN');
  });

  it('reads no API key: a garbage X-API-Key is ignored and the device code alone names the scope', async () => {
    // Prepare: the request is started and approved in an application.
    const { application, publicKey } = await createTestApplication(app);
    const email = newEmail();
    const ip = freshIp();
    const start = await app.request('POST', '/auth/code/start', {
      body: { email },
      headers: { 'x-api-key': publicKey },
      ip,
    });
    expect(start.status).toBe(200);
    const poll = () =>
      app.request('POST', '/auth/code/poll', {
        body: { deviceCode: start.body.deviceCode },
        headers: { 'X-API-Key': 'nope' },
        ip,
      });

    // Act
    const pending = await poll();
    const approve = await app.request('POST', '/auth/code/approve', {
      body: { email, code: await latestCode(email) },
      headers: { 'x-api-key': publicKey },
      ip: freshIp(),
    });
    app.clock.advance(5 * SECOND);
    const done = await poll();

    // Assess
    expectError(pending, 428, 'UNPROCESSABLE');
    expect(approve.status).toBe(200);
    expect(done.status).toBe(200);
    expect(done.body.session.applicationId).toBe(application.id);
    expect(done.body.user.email).toBe(email);
  });
});
