import { SESv2Client } from '@aws-sdk/client-sesv2';
import { GetCommand } from '@aws-sdk/lib-dynamodb';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { freePort } from '../../shared/local/ports.ts';
import { MailUnavailableError } from '../../shared/mail/mailer.ts';
import { SesMailer } from '../../shared/mail/ses-mailer.ts';
import { keys, PLATFORM } from '../../shared/store/keys.ts';
import { startTestApp, type TestApp, type TestAppOptions } from '../support/app.ts';
import { expectError } from '../support/expect-error.ts';
import { freshIp, type TestResponse } from '../support/http-client.ts';
import { latestCode, mailTo } from '../support/inbox.ts';
import { printableNames, unprintableNames } from '../support/names.ts';
import { bearer, newEmail, signIn, wrongCode } from '../support/sign-in.ts';
import { createTestApplication } from '../support/tenancy.ts';

let app: TestApp;
beforeAll(async () => {
  app = await startTestApp();
});
afterAll(() => app.close());

const MINUTE = 60_000;
const CODE_ALPHABET = 'ABCDEFGHJKMNPQRSTUVWXYZ23456789';
/** A compact JWS (a session token) anywhere in a text. */
const JWT = /eyJ[\w-]*\.[\w-]+\.[\w-]+/;

/** One POST from its own loopback address, so per-IP limits never interfere. */
const post = (path: string, body: unknown, headers: Record<string, string> = {}, target = app) =>
  target.request('POST', path, { body, headers, ip: freshIp() });

/** start, then read the emailed code (XXXX-XXXX). */
async function startFor(email: string, headers: Record<string, string> = {}, extra: { name?: string } = {}) {
  const response = await post('/auth/code/start', { email, ...extra }, headers);
  expect(response.status).toBe(200);
  return { response, deviceCode: response.body.deviceCode as string, code: await latestCode(email) };
}

/** The header set minus the values that differ on every response. */
const stableHeaders = (headers: TestResponse['headers']) =>
  Object.fromEntries(
    Object.entries(headers).filter(([name]) => !['date', 'x-request-id', 'content-length'].includes(name)),
  );

const signInItem = (target: TestApp, scope: string, email: string) =>
  target.deps.db.client
    .send(
      new GetCommand({
        TableName: target.deps.db.table,
        Key: keys.signIn(scope, email),
        ConsistentRead: true,
      }),
    )
    .then(({ Item }) => Item);

const accountItem = (scope: string, email: string) =>
  app.deps.db.client
    .send(
      new GetCommand({ TableName: app.deps.db.table, Key: keys.account(scope, email), ConsistentRead: true }),
    )
    .then(({ Item }) => Item);

describe('sign-in request', () => {
  it('(none) -> pending: start answers 200 with the device code, the same whether or not the address has an account', async () => {
    // Prepare
    const known = (await signIn(app)).email;
    const unknown = newEmail();

    // Act
    const forNew = await post('/auth/code/start', { email: unknown });
    const forKnown = await post('/auth/code/start', { email: known });

    // Assess
    expect(forNew.status).toBe(200);
    expect(forNew.body).toEqual({
      sent: true,
      deviceCode: expect.stringMatching(/^[0-9a-f]{64}$/),
      phrase: expect.stringMatching(/^[a-z]+ [a-z]+$/),
      expiresIn: 600,
      interval: 5,
    });
    expect(forKnown.status).toBe(forNew.status);
    expect(Object.keys(forKnown.body).sort()).toEqual(Object.keys(forNew.body).sort());
    const random = { deviceCode: 'x', phrase: 'x' };
    expect({ ...forKnown.body, ...random }).toEqual({ ...forNew.body, ...random });
    expect(stableHeaders(forKnown.headers)).toEqual(stableHeaders(forNew.headers));
    expect(forKnown.body.deviceCode).not.toBe(forNew.body.deviceCode);
  });

  it('pending -> consumed: verify with the correct code answers 200 SignInResult; the code works once', async () => {
    // Prepare
    const email = newEmail();
    const { code } = await startFor(email);

    // Act
    const verify = await post('/auth/code/verify', { email, code });
    const again = await post('/auth/code/verify', { email, code });

    // Assess
    expect(verify.status).toBe(200);
    expect(Object.keys(verify.body).sort()).toEqual(['session', 'token', 'user']);
    expect(verify.body.user).toMatchObject({ email, emailVerified: true });
    expect(verify.body.token).toEqual(expect.any(String));
    expect(verify.headers['set-auth-token']).toBe(verify.body.token);
    expect(verify.body.session).toMatchObject({ id: expect.stringMatching(/^ses_/), applicationId: null });
    expectError(again, 400, 'VALIDATION_ERROR');
    expect(again.headers['set-auth-token']).toBeUndefined();
  });

  it('pending -> pending: a wrong code answers 400 with attemptsLeft 4, 3, 2, 1, verify and approve sharing one counter', async () => {
    // Prepare
    const email = newEmail();
    const { code } = await startFor(email);
    const wrong = wrongCode(code);

    // Act
    const answers = [
      await post('/auth/code/verify', { email, code: wrong }),
      await post('/auth/code/approve', { email, code: wrong }),
      await post('/auth/code/verify', { email, code: wrong }),
      await post('/auth/code/approve', { email, code: wrong }),
    ];

    // Assess
    for (const answer of answers) expectError(answer, 400, 'VALIDATION_ERROR');
    expect(answers.map((answer) => answer.body.error.details?.attemptsLeft)).toEqual([4, 3, 2, 1]);
    // Four wrong attempts leave the request pending: the right code still works.
    expect((await post('/auth/code/verify', { email, code })).status).toBe(200);
  });

  it('pending -> destroyed: the fifth wrong attempt answers 429 TOO_MANY_ATTEMPTS and the code and device code die', async () => {
    // Prepare
    const email = newEmail();
    const { code, deviceCode } = await startFor(email);
    const wrong = wrongCode(code);
    for (let i = 0; i < 4; i++) {
      expect((await post('/auth/code/verify', { email, code: wrong })).status).toBe(400);
    }

    // Act
    const fifth = await post('/auth/code/approve', { email, code: wrong });
    const rightCode = await post('/auth/code/verify', { email, code });
    const approveRight = await post('/auth/code/approve', { email, code });
    const poll = await post('/auth/code/poll', { deviceCode });

    // Assess
    expectError(fifth, 429, 'TOO_MANY_ATTEMPTS');
    expectError(rightCode, 429, 'TOO_MANY_ATTEMPTS');
    expectError(approveRight, 429, 'TOO_MANY_ATTEMPTS');
    expect(rightCode.headers['set-auth-token']).toBeUndefined();
    expectError(poll, 400, 'FORBIDDEN');
  });

  it('pending -> approved: approve with the correct code answers 200 { approved: true } and no token', async () => {
    // Prepare
    const email = newEmail();
    const { code } = await startFor(email);

    // Act: even from a platform origin, approve must not hand out a session.
    const approve = await post(
      '/auth/code/approve',
      { email, code },
      { origin: 'https://app.doorcode.test' },
    );
    const verifyAfter = await post('/auth/code/verify', { email, code });

    // Assess
    expect(approve.status).toBe(200);
    expect(approve.body).toEqual({ approved: true });
    expect(approve.headers['set-auth-token']).toBeUndefined();
    expect(approve.headers['set-cookie']).toBeUndefined();
    expect(`${JSON.stringify(approve.headers)} ${approve.text}`).not.toMatch(JWT);
    expectError(verifyAfter, 400, 'VALIDATION_ERROR');
    expect(verifyAfter.headers['set-auth-token']).toBeUndefined();
  });

  it('approved -> consumed: poll answers 200 SignInResult with set-auth-token, then 400 FORBIDDEN', async () => {
    // Prepare
    const email = newEmail();
    const { code, deviceCode } = await startFor(email);
    expect((await post('/auth/code/approve', { email, code })).status).toBe(200);

    // Act
    const poll = await post('/auth/code/poll', { deviceCode });
    const again = await post('/auth/code/poll', { deviceCode });

    // Assess
    expect(poll.status).toBe(200);
    expect(Object.keys(poll.body).sort()).toEqual(['session', 'token', 'user']);
    expect(poll.body.user).toMatchObject({ email, emailVerified: true });
    expect(poll.headers['set-auth-token']).toBe(poll.body.token);
    expect((await app.request('GET', '/auth/session', { headers: bearer(poll.body.token) })).status).toBe(
      200,
    );
    expectError(again, 400, 'FORBIDDEN');
  });

  it('pending -> pending: poll before approval answers 428 UNPROCESSABLE authorization_pending with interval 5', async () => {
    // Prepare
    const email = newEmail();
    const { deviceCode } = await startFor(email);

    // Act
    const poll = await post('/auth/code/poll', { deviceCode });

    // Assess
    expectError(poll, 428, 'UNPROCESSABLE');
    expect(poll.body.error.details).toMatchObject({ reason: 'authorization_pending', interval: 5 });
    expect(poll.headers['set-auth-token']).toBeUndefined();
  });

  it('pending -> expired: the code works at 9:59; at 10:01 verify and approve answer 410 and poll 400 EXPIRED, though TTL never ran', async () => {
    // Prepare
    const onTime = newEmail();
    const late = newEmail();
    const first = await startFor(onTime);
    app.clock.advance(9 * MINUTE + 59_000);
    const worksAt959 = await post('/auth/code/verify', { email: onTime, code: first.code });
    const second = await startFor(late);
    app.clock.advance(10 * MINUTE + 1_000);

    // Act
    const verify = await post('/auth/code/verify', { email: late, code: second.code });
    const approve = await post('/auth/code/approve', { email: late, code: second.code });
    const poll = await post('/auth/code/poll', { deviceCode: second.deviceCode });

    // Assess
    expect(worksAt959.status).toBe(200);
    expectError(verify, 410, 'VALIDATION_ERROR');
    expectError(approve, 410, 'VALIDATION_ERROR');
    expectError(poll, 400, 'EXPIRED');
    expect(await signInItem(app, PLATFORM, late)).toMatchObject({ status: 'pending', attempts: 0 });
  });

  it('pending -> replaced: after a second start only the latest code and device code work', async () => {
    // Prepare
    const email = newEmail();
    const first = await startFor(email);
    const second = await startFor(email);
    expect(second.code).not.toBe(first.code);

    // Act
    const oldCode = await post('/auth/code/verify', { email, code: first.code });
    const oldDevice = await post('/auth/code/poll', { deviceCode: first.deviceCode });
    const newCode = await post('/auth/code/verify', { email, code: second.code });

    // Assess
    expectError(oldCode, 400, 'VALIDATION_ERROR');
    expectError(oldDevice, 400, 'FORBIDDEN');
    expect(newCode.status).toBe(200);
  });

  it.each([
    ['lower case with the hyphen', (code: string) => code.toLowerCase()],
    ['upper case without the hyphen', (code: string) => code.replace('-', '')],
    ['lower case with a space', (code: string) => code.toLowerCase().replace('-', ' ')],
  ])('matches the code case-insensitively, ignoring hyphens and spaces (%s)', async (_, variant) => {
    // Prepare
    const email = newEmail();
    const { code } = await startFor(email);
    expect(code).toMatch(/^[A-Z2-9]{4}-[A-Z2-9]{4}$/);
    expect([...code.replace('-', '')].every((c) => CODE_ALPHABET.includes(c))).toBe(true);

    // Act
    const verify = await post('/auth/code/verify', { email, code: variant(code) });

    // Assess
    expect(verify.status).toBe(200);
  });

  it('takes an address with surrounding spaces and capitals as the same account, mailing the plain address', async () => {
    // Prepare
    const email = newEmail();
    const pasted = `  ${email.toUpperCase()}\t`;

    // Act
    const started = await post('/auth/code/start', { email: pasted });
    const code = await latestCode(email);
    const verified = await post('/auth/code/verify', { email: ` ${email} `, code });
    const again = await signIn(app, email);

    // Assess
    expect(started.status).toBe(200);
    expect(verified.status).toBe(200);
    expect(verified.body.user.email).toBe(email);
    expect(again.body.user.id).toBe(verified.body.user.id);
  });

  it.each([
    ['only spaces', '   '],
    ['an inner space', 'ada lovelace@example.test'],
    ['no domain', ' ada@ '],
    // Lower-cased first, the Kelvin sign would become an ASCII k: the account of kelly@example.test.
    ['a Kelvin sign for the K', '\u212Aelly@example.test'],
    ['a Kelvin sign in the domain', 'kelly@\u212Aexample.test'],
  ])('still refuses an address that is not one once trimmed (%s)', async (_, email) => {
    // Act
    const started = await post('/auth/code/start', { email });

    // Assess
    expectError(started, 400, 'VALIDATION_ERROR');
  });

  it('scopes the code and the account to the key sent on start: platform and application accounts differ', async () => {
    // Prepare
    const { application, publicKey } = await createTestApplication(app);
    const email = newEmail();
    const { code } = await startFor(email, { 'x-api-key': publicKey });

    // Act
    const withoutKey = await post('/auth/code/verify', { email, code });
    const withKey = await post('/auth/code/verify', { email, code }, { 'x-api-key': publicKey });
    const onPlatform = await signIn(app, email);

    // Assess
    expectError(withoutKey, 400, 'VALIDATION_ERROR');
    expect(withKey.status).toBe(200);
    expect(withKey.body.session.applicationId).toBe(application.id);
    expect(withKey.body.user.email).toBe(email);
    expect(onPlatform.body.session.applicationId).toBeNull();
    expect(onPlatform.body.user.email).toBe(email);
    expect(onPlatform.body.user.id).not.toBe(withKey.body.user.id);
  });

  it('first sign-in creates the account, email-verified, with the name given on start (not before the code)', async () => {
    // Prepare
    const email = newEmail();
    await startFor(email, {}, { name: 'Grace Hopper' });
    const beforeCode = await accountItem(PLATFORM, email);

    // Act
    const verify = await post('/auth/code/verify', { email, code: await latestCode(email) });

    // Assess
    expect(beforeCode).toBeUndefined();
    expect(verify.status).toBe(200);
    expect(verify.body.user).toMatchObject({ email, name: 'Grace Hopper', emailVerified: true });
    const session = await app.request('GET', '/auth/session', { headers: bearer(verify.body.token) });
    expect(session.body.user).toMatchObject({
      id: verify.body.user.id,
      name: 'Grace Hopper',
      emailVerified: true,
    });
  });

  it('refuses a name of 121 characters on start with 400 VALIDATION_ERROR', async () => {
    // Prepare
    const email = newEmail();

    // Act
    const start = await post('/auth/code/start', { email, name: 'n'.repeat(121) });
    const at120 = await post('/auth/code/start', { email, name: 'n'.repeat(120) });

    // Assess
    expectError(start, 400, 'VALIDATION_ERROR');
    expect(start.body.error.details.issues).toEqual([{ path: 'name', message: expect.any(String) }]);
    expect(at120.status).toBe(200);
  });

  it.each(unprintableNames)(
    'refuses a name with %s on start with 400 VALIDATION_ERROR, storing and sending nothing',
    async (_, name) => {
      // Prepare
      const email = newEmail();

      // Act
      const start = await post('/auth/code/start', { email, name });

      // Assess
      expectError(start, 400, 'VALIDATION_ERROR');
      expect(start.body.error.details.issues).toEqual([{ path: 'name', message: expect.any(String) }]);
      expect(await signInItem(app, PLATFORM, email)).toBeUndefined();
      expect(await mailTo(email)).toEqual([]);
    },
  );

  it('accepts names in any script, with accents and emoji, and keeps them as given', async () => {
    for (const name of printableNames) {
      // Prepare
      const email = newEmail();
      await startFor(email, {}, { name });

      // Act
      const verify = await post('/auth/code/verify', { email, code: await latestCode(email) });

      // Assess
      expect(verify.status).toBe(200);
      expect(verify.body.user.name).toBe(name);
    }
  });

  it('ignores the name given on start for an existing account', async () => {
    // Prepare
    const email = newEmail();
    await startFor(email, {}, { name: 'Ada' });
    const first = await post('/auth/code/verify', { email, code: await latestCode(email) });
    expect(first.body.user.name).toBe('Ada');
    await startFor(email, {}, { name: 'Somebody Else' });

    // Act
    const second = await post('/auth/code/verify', { email, code: await latestCode(email) });

    // Assess
    expect(second.status).toBe(200);
    expect(second.body.user).toEqual(first.body.user);
    const session = await app.request('GET', '/auth/session', { headers: bearer(second.body.token) });
    expect(session.body.user.name).toBe('Ada');
  });

  describe('when the sign-in email cannot be sent', () => {
    /** A second app on its own table and its own dependencies. */
    async function withApp(options: TestAppOptions, run: (other: TestApp) => Promise<void>) {
      const other = await startTestApp(options);
      try {
        await run(other);
      } finally {
        await other.close();
      }
    }

    it('answers 503 SERVICE_UNAVAILABLE with retry-after and leaves no usable code', async () => {
      const down = {
        send: async () => {
          throw new MailUnavailableError('down');
        },
        isSuppressed: async () => false,
      };
      await withApp({ overrides: { mailer: down } }, async (other) => {
        // Prepare
        const email = newEmail();

        // Act
        const start = await post('/auth/code/start', { email }, {}, other);
        const verify = await post('/auth/code/verify', { email, code: 'ABCD-EFGH' }, {}, other);

        // Assess
        expectError(start, 503, 'SERVICE_UNAVAILABLE');
        expect(start.headers['retry-after']).toMatch(/^[1-9]\d*$/);
        // No device code anywhere in the answer (it is 64 hex characters): nothing to poll with.
        expect(start.text).not.toMatch(/[0-9a-f]{64}/i);
        expectError(verify, 400, 'VALIDATION_ERROR');
        expect(await signInItem(other, PLATFORM, email)).toBeUndefined();
      });
    });

    it('maps a failure of the real SES adapter (endpoint unreachable) to 503 with retry-after', async () => {
      const ses = new SESv2Client({
        endpoint: `http://127.0.0.1:${await freePort()}`,
        region: 'us-east-1',
        credentials: { accessKeyId: 'x', secretAccessKey: 'x' },
        maxAttempts: 1,
      });
      const mailer = new SesMailer(ses, 'no-reply@doorcode.test');
      await withApp({ overrides: { mailer } }, async (other) => {
        // Prepare
        const email = newEmail();

        // Act
        const start = await post('/auth/code/start', { email }, {}, other);

        // Assess
        expectError(start, 503, 'SERVICE_UNAVAILABLE');
        expect(start.headers['retry-after']).toMatch(/^[1-9]\d*$/);
        expect(await signInItem(other, PLATFORM, email)).toBeUndefined();
      });
    });
  });
});
