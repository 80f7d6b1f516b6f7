import { GetCommand } from '@aws-sdk/lib-dynamodb';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Mailer, MailUnavailableError } from '../../shared/mail/mailer.ts';
import { hourOf } from '../../shared/sign-in/mail-cap.ts';
import { keys } from '../../shared/store/keys.ts';
import { startTestApp, type TestApp } from '../support/app.ts';
import { TestClock } from '../support/clock.ts';
import { expectError } from '../support/expect-error.ts';
import { freshIp } from '../support/http-client.ts';
import { mailTo } from '../support/inbox.ts';
import { newEmail } from '../support/sign-in.ts';
import { createTestApplication } from '../support/tenancy.ts';

const PLATFORM = 'platform';
const HOUR = 3_600_000;

/** One POST from its own loopback address, so per-IP limits never interfere. */
const start = (target: TestApp, email: string) =>
  target.request('POST', '/auth/code/start', { body: { email }, ip: freshIp() });

const signInItem = (target: TestApp, email: string) =>
  target.deps.db.client
    .send(
      new GetCommand({
        TableName: target.deps.db.table,
        Key: keys.signIn(PLATFORM, email),
        ConsistentRead: true,
      }),
    )
    .then(({ Item }) => Item);

const capCounter = (target: TestApp, at: number) =>
  target.deps.db.client
    .send(
      new GetCommand({
        TableName: target.deps.db.table,
        Key: keys.mailCap(hourOf(at)),
        ConsistentRead: true,
      }),
    )
    .then(({ Item }) => Item?.sent as number | undefined);

/**
 * The real SES mailer (sending to the emulator), whose suppression list is a stand-in: the emulator
 * has none, so this one answers like SES's GetSuppressedDestination for the addresses in `list`.
 */
function withSuppressionList(real: Mailer, list: Set<string>, asked: string[] = []): Mailer {
  return {
    send: (message) => real.send(message),
    isSuppressed: async (address) => {
      asked.push(address);
      return list.has(address);
    },
  };
}

describe('POST /auth/code/start to an address on the SES suppression list', () => {
  const suppressed = new Set<string>();
  const asked: string[] = [];
  let app: TestApp;
  beforeAll(async () => {
    app = await startTestApp({
      env: { MAX_CODE_EMAILS_PER_HOUR: '100' },
      overrides: (defaults) => ({ mailer: withSuppressionList(defaults.mailer, suppressed, asked) }),
    });
  });
  afterAll(() => app.close());

  it('asks SES only for a start that may send: not for an unknown key, nor for a test address', async () => {
    // Prepare
    const { publicKey } = await createTestApplication(app, {
      authentication: { syntheticEmailDomain: 'bots.suppression.test' },
    });
    const real = newEmail();
    const bot = newEmail('bots.suppression.test');
    const unknownKey = newEmail();
    asked.length = 0;

    // Act
    const answers = [
      await app.request('POST', '/auth/code/start', {
        body: { email: unknownKey },
        headers: { 'x-api-key': `pu_${'A'.repeat(43)}` },
        ip: freshIp(),
      }),
      await app.request('POST', '/auth/code/start', {
        body: { email: bot },
        headers: { 'x-api-key': publicKey },
        ip: freshIp(),
      }),
      await app.request('POST', '/auth/code/start', {
        body: { email: real },
        headers: { 'x-api-key': publicKey },
        ip: freshIp(),
      }),
    ];

    // Assess: one GetSuppressedDestination, for the address that is mailed.
    expect(answers.map((answer) => answer.status)).toEqual([401, 200, 200]);
    expect(asked).toEqual([real]);
  });

  it('answers like any start, sends nothing, and leaves a request whose code nobody knows', async () => {
    // Prepare
    const bounced = newEmail();
    const deliverable = newEmail();
    suppressed.add(bounced);

    // Act
    const refused = await start(app, bounced);
    const accepted = await start(app, deliverable);

    // Assess: the same status and the same shape of answer, so start does not tell suppression.
    expect(refused.status).toBe(200);
    expect(Object.keys(refused.body).sort()).toEqual(Object.keys(accepted.body).sort());
    expect(refused.body).toMatchObject({ sent: true, expiresIn: accepted.body.expiresIn });
    expect(await mailTo(bounced)).toEqual([]);
    // The emulator accepted a send naming the configuration set, as SES does.
    expect(app.deps.config.SES_CONFIGURATION_SET).toBe('doorcode-test');
    expect(await mailTo(deliverable)).toHaveLength(1);
    // Polling says what it says for any undelivered email: pending, until the request expires.
    const poll = await app.request('POST', '/auth/code/poll', {
      body: { deviceCode: refused.body.deviceCode },
      ip: freshIp(),
    });
    expectError(poll, 428, 'UNPROCESSABLE');
    expect(await signInItem(app, bounced)).toMatchObject({ status: 'pending', attempts: 0 });
  });

  it('does not take a slot of the hourly cap for an email it did not send', async () => {
    // Prepare
    const bounced = newEmail();
    suppressed.add(bounced);
    const before = (await capCounter(app, app.clock.now())) ?? 0;

    // Act
    const response = await start(app, bounced);

    // Assess
    expect(response.status).toBe(200);
    expect((await capCounter(app, app.clock.now())) ?? 0).toBe(before);
  });

  it('sends when the suppression list cannot be read: the configuration set still drops a suppressed address', async () => {
    const unreadable: Mailer = {
      send: (message) => app.deps.mailer.send(message),
      isSuppressed: async () => {
        throw new MailUnavailableError('throttled');
      },
    };
    const other = await startTestApp({ overrides: { mailer: unreadable } });
    try {
      const email = newEmail();
      const response = await start(other, email);
      expect(response.status).toBe(200);
      expect(await mailTo(email)).toHaveLength(1);
      expect(other.logs.some((line) => line.includes('suppression list not read'))).toBe(true);
    } finally {
      await other.close();
    }
  });
});

describe('the global cap on sign-in emails per hour', () => {
  const CAP = 5;
  // Mid-hour, so the expected Retry-After is a round number.
  const clock = new TestClock(Date.UTC(2026, 10, 23, 12, 40, 0));
  let app: TestApp;
  let mailDown = false;
  beforeAll(async () => {
    app = await startTestApp({
      clock,
      env: { MAX_CODE_EMAILS_PER_HOUR: String(CAP) },
      overrides: (defaults) => ({
        mailer: {
          send: async (message) => {
            if (mailDown) throw new MailUnavailableError('down');
            await defaults.mailer.send(message);
          },
          isSuppressed: (address) => defaults.mailer.isSuppressed(address),
        },
      }),
    });
  });
  afterAll(() => app.close());

  it('sends at most the cap across parallel starts from different IPs to different addresses', async () => {
    // Prepare
    const emails = Array.from({ length: CAP * 3 }, () => newEmail());

    // Act
    const responses = await Promise.all(emails.map((email) => start(app, email)));

    // Assess
    const sent = emails.filter((_, index) => responses[index]!.status === 200);
    const refused = responses.filter((response) => response.status !== 200);
    expect(sent).toHaveLength(CAP);
    expect(refused).toHaveLength(emails.length - CAP);
    for (const response of refused) {
      expectError(response, 429, 'RATE_LIMITED');
      // Until the counter of the next clock hour starts: 20 minutes from 12:40.
      expect(response.headers['retry-after']).toBe('1200');
      expect(response.body.error.details).toEqual({ retryAfter: 1200, reason: 'mail_cap' });
    }
    const delivered = await Promise.all(emails.map(mailTo));
    expect(delivered.filter((messages) => messages.length > 0)).toHaveLength(CAP);
    for (const email of sent) expect(await mailTo(email)).toHaveLength(1);
    // A refused start leaves no request behind.
    const refusedEmails = emails.filter((_, index) => responses[index]!.status !== 200);
    for (const email of refusedEmails) expect(await signInItem(app, email)).toBeUndefined();
    expect(await capCounter(app, clock.now())).toBe(CAP);
    // Each refusal is counted, for the MailCapReached alarm.
    const capped = app.logs
      .map((line) => JSON.parse(line) as Record<string, unknown>)
      .filter((line) => '_aws' in line && typeof line.MailCapReached === 'number');
    expect(capped.reduce((sum, line) => sum + (line.MailCapReached as number), 0)).toBe(emails.length - CAP);
  });

  it('sends again in the next hour', async () => {
    clock.advance(HOUR);
    const email = newEmail();
    const response = await start(app, email);
    expect(response.status).toBe(200);
    expect(await mailTo(email)).toHaveLength(1);
  });

  it('gives the slot back when the email could not be sent', async () => {
    // Prepare
    clock.advance(HOUR);
    const before = (await capCounter(app, clock.now())) ?? 0;
    mailDown = true;

    // Act
    const failed = await start(app, newEmail());
    mailDown = false;

    // Assess
    expectError(failed, 503, 'SERVICE_UNAVAILABLE');
    expect((await capCounter(app, clock.now())) ?? 0).toBe(before);
  });
});
