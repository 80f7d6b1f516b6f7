import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readItems } from '../../shared/store/batch.ts';
import { keys, PLATFORM } from '../../shared/store/keys.ts';
import { createApiKey } from '../../shared/tenancy/api-keys.ts';
import { createFixtureApplication } from '../../shared/tenancy/applications.ts';
import { startTestApp, type TestApp } from '../support/app.ts';
import { freshIp, type TestResponse } from '../support/http-client.ts';
import { latestCode } from '../support/inbox.ts';
import { loseFirstAnswer } from '../support/lost-answer.ts';
import { newCode, refreshRequest, tokenRequest } from '../support/oauth-token.ts';
import { bearer, newEmail, signIn, wrongCode } from '../support/sign-in.ts';
import { createOwnedApplication, fixtureAudit } from '../support/tenancy.ts';

// db.ts: the SDK sends a request again when its answer is lost (maxAttempts 3). A write that landed
// and is sent again must be taken for what it did, never counted twice nor refused as a race.

let app: TestApp;
beforeAll(async () => {
  app = await startTestApp();
});
afterAll(() => app.close());

async function start(email: string) {
  const response = await app.request('POST', '/auth/code/start', { body: { email }, ip: freshIp() });
  expect(response.status).toBe(200);
  return { deviceCode: response.body.deviceCode as string, code: await latestCode(email) };
}

const post = (path: string, body: Record<string, unknown>): Promise<TestResponse> =>
  app.request('POST', path, { body, ip: freshIp() });

/** Sends `act` while the first answer of the command `picks` chooses is lost; answers the sends too. */
async function losingFirstAnswer<T>(
  picks: (command: string, input: Record<string, unknown>) => boolean,
  act: () => Promise<T>,
  options: { newToken?: boolean } = {},
): Promise<{ result: T; sends: number }> {
  const lost = loseFirstAnswer(app.deps.db, picks, options);
  try {
    const result = await act();
    return { result, sends: lost.sends() };
  } finally {
    lost.restore();
  }
}

const updating =
  (attribute: string) =>
  (command: string, input: Record<string, unknown>): boolean =>
    command === 'UpdateItemCommand' && String(input.UpdateExpression).includes(attribute);

const putting =
  (prefix: string) =>
  (command: string, input: Record<string, unknown>): boolean =>
    command === 'PutItemCommand' &&
    String((input.Item as { pk?: { S?: string } } | undefined)?.pk?.S).startsWith(prefix);

const transacting = (command: string): boolean => command === 'TransactWriteItemsCommand';

async function storedRequest(email: string) {
  const { request } = await readItems(app.deps.db, { request: keys.signIn(PLATFORM, email) });
  return request;
}

describe('a write whose answer was lost and that the SDK sent again', () => {
  it('counts a wrong code once (5 attempts)', async () => {
    const email = newEmail();
    const { code } = await start(email);

    const { result, sends } = await losingFirstAnswer(updating('attempts'), () =>
      post('/auth/code/verify', { email, code: wrongCode(code) }),
    );

    expect(sends).toBe(2);
    expect(result.status).toBe(400);
    expect(result.body.error.details.attemptsLeft).toBe(4);
    expect((await storedRequest(email))?.attempts).toBe(1);
    const next = await post('/auth/code/verify', { email, code: wrongCode(code) });
    expect(next.body.error.details.attemptsLeft).toBe(3);
  });

  it('answers the fifth wrong code as too many attempts when its own count made it the fifth', async () => {
    const email = newEmail();
    const { code } = await start(email);
    for (let attempt = 1; attempt <= 4; attempt++) {
      await post('/auth/code/verify', { email, code: wrongCode(code) });
    }

    const { result, sends } = await losingFirstAnswer(updating('attempts'), () =>
      post('/auth/code/verify', { email, code: wrongCode(code) }),
    );

    expect(sends).toBe(2);
    expect(result.status, result.text).toBe(429);
    expect(result.body.error.code).toBe('TOO_MANY_ATTEMPTS');
    expect((await storedRequest(email))?.attempts).toBe(5);
  });

  it('counts exactly five of twenty parallel wrong codes when one of their answers was lost', async () => {
    const email = newEmail();
    const { code } = await start(email);

    const { result, sends } = await losingFirstAnswer(updating('attempts'), () =>
      Promise.all(
        Array.from({ length: 20 }, () => post('/auth/code/verify', { email, code: wrongCode(code) })),
      ),
    );

    // At least the five counts and the resend (later wrong codes may read the request destroyed).
    expect(sends).toBeGreaterThanOrEqual(6);
    expect(result.every((answer) => answer.status === 400 || answer.status === 429)).toBe(true);
    const stored = await storedRequest(email);
    expect(stored?.attempts).toBe(5);
    expect((stored?.attemptIds as Set<string> | undefined)?.size).toBe(5);
  });

  it('approves a code, and a second approval is still refused as already used', async () => {
    const email = newEmail();
    const { code, deviceCode } = await start(email);

    const { result, sends } = await losingFirstAnswer(updating('#status'), () =>
      post('/auth/code/approve', { email, code }),
    );

    expect(sends).toBe(2);
    expect(result.status, result.text).toBe(200);
    expect(result.body).toEqual({ approved: true });
    const again = await post('/auth/code/approve', { email, code });
    expect(again.status).toBe(400);
    expect(again.body.error.details.reason).toBe('already_used');
    const poll = await post('/auth/code/poll', { deviceCode });
    expect(poll.status, poll.text).toBe(200);
  });

  it('records an on-time poll as on time (RFC 8628 §3.5): pending, not slow_down', async () => {
    const email = newEmail();
    const { deviceCode } = await start(email);

    const { result, sends } = await losingFirstAnswer(updating('lastPolledAt'), () =>
      post('/auth/code/poll', { deviceCode }),
    );

    expect(sends).toBe(2);
    expect(result.status, result.text).toBe(428);
    expect(result.body.error.details).toEqual({ reason: 'authorization_pending', interval: 5 });
    // The poll was recorded once: an immediate second poll is early.
    const early = await post('/auth/code/poll', { deviceCode });
    expect(early.status).toBe(429);
    expect(early.body.error.details).toEqual({ reason: 'slow_down', interval: 10 });
  });

  it('creates an application', async () => {
    const { result, sends } = await losingFirstAnswer(putting('APP#'), () =>
      createFixtureApplication(app.deps, { organizationId: 'org_test', name: 'Lost answer' }),
    );

    expect(sends).toBe(2);
    expect(result.name).toBe('Lost answer');
  });

  it('creates an API key, which then works', async () => {
    const application = await createFixtureApplication(app.deps, {
      organizationId: 'org_test',
      name: 'Keys',
    });

    const { result, sends } = await losingFirstAnswer(transacting, () =>
      createApiKey(app.deps, fixtureAudit, {
        applicationId: application.id,
        organizationId: application.organizationId,
        type: 'secret',
      }),
    );

    expect(sends).toBe(2);
    const session = await app.request('GET', '/auth/session', { headers: { 'x-api-key': result.key } });
    expect(session.status, session.text).toBe(200);
  });

  // TransactWriteItems carries a ClientRequestToken the SDK fills in once, before its retries:
  // DynamoDB answers a resend within 10 minutes as the first, without applying it again.
  it('signs in once with a verify whose transaction is sent again', async () => {
    const email = newEmail();
    const { code } = await start(email);

    const { result, sends } = await losingFirstAnswer(transacting, () =>
      post('/auth/code/verify', { email, code }),
    );

    expect(sends).toBe(2);
    expect(result.status, result.text).toBe(200);
    const sessions = await app.request('GET', '/auth/list-sessions', { headers: bearer(result.body.token) });
    expect(sessions.body.items).toHaveLength(1);
  });

  it('changes a profile with an update-user whose transaction is sent again', async () => {
    const { token } = await signIn(app);

    const { result, sends } = await losingFirstAnswer(transacting, () =>
      app.request('POST', '/auth/update-user', { body: { name: 'Ada' }, headers: bearer(token) }),
    );

    expect(sends).toBe(2);
    expect(result.status, result.text).toBe(200);
  });

  // shared/store/oauth.ts spendCode: a resend DynamoDB applies again (another ClientRequestToken)
  // finds the code spent by its own writeId (spentBy), so it is taken for our spend, not for a
  // replay that would revoke the grant it just created.
  it.each([
    ['with its ClientRequestToken', false],
    ['with another ClientRequestToken', true],
  ])(
    'exchanges an authorization code whose spend is sent again %s, with a working refresh token',
    async (_case, newToken) => {
      const owned = await createOwnedApplication(app);
      const issued = await newCode(app, { userId: owned.owner.userId, applicationId: owned.applicationId });

      const { result, sends } = await losingFirstAnswer(transacting, () => tokenRequest(app, issued.fields), {
        newToken,
      });

      expect(sends).toBe(2);
      expect(result.status, result.text).toBe(200);
      const refreshed = await refreshRequest(app, result.body.refresh_token);
      expect(refreshed.status, refreshed.text).toBe(200);
      expect(refreshed.body.refresh_token).toEqual(expect.any(String));
    },
  );
});
