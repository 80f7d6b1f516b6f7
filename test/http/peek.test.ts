import { GetCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { keys } from '../../shared/store/keys.ts';
import { startTestApp, type TestApp } from '../support/app.ts';
import { expectError } from '../support/expect-error.ts';
import { freshIp, type TestResponse } from '../support/http-client.ts';
import { latestCode, mailTo } from '../support/inbox.ts';
import { newEmail, wrongCode } from '../support/sign-in.ts';
import { createOwnedApplication, createTestApplication } from '../support/tenancy.ts';

const SYNTHETIC = 'synthetic.test';

let app: TestApp;
/** An application with a synthetic test domain, and one without. */
let withDomain: Awaited<ReturnType<typeof createTestApplication>>;
let withoutDomain: Awaited<ReturnType<typeof createTestApplication>>;
beforeAll(async () => {
  app = await startTestApp();
  withDomain = await createTestApplication(app, { authentication: { syntheticEmailDomain: SYNTHETIC } });
  withoutDomain = await createTestApplication(app, {}, 'No Test Domain');
});
afterAll(() => app.close());

const post = (path: string, body: unknown, headers: Record<string, string> = {}) =>
  app.request('POST', path, { body, headers, ip: freshIp() });

const peek = (email: string, key: string) => post('/auth/code/peek', { email }, { 'x-api-key': key });

/** Starts a sign-in; its code from peek for a test address (never mailed), else from the inbox. */
async function startIn(key: string, email: string) {
  const start = await post('/auth/code/start', { email }, { 'x-api-key': key });
  expect(start.status).toBe(200);
  const synthetic = key === withDomain.publicKey && email.endsWith(`@${SYNTHETIC}`);
  const code = synthetic ? (await peek(email, withDomain.secretKey)).body.code : await latestCode(email);
  return { deviceCode: start.body.deviceCode as string, code: code as string };
}

/** What a client can observe of a refusal, minus the values that differ on every response. */
const observable = (response: TestResponse) => ({
  status: response.status,
  body: response.body,
  headers: Object.fromEntries(
    Object.entries(response.headers).filter(
      ([name]) => !['date', 'x-request-id', 'content-length'].includes(name),
    ),
  ),
});

describe('POST /auth/code/peek', () => {
  it('shows the pending code of a synthetic address to the secret key (XXXX-XXXX), which is never mailed', async () => {
    // Prepare
    const email = newEmail(SYNTHETIC);
    const start = await post('/auth/code/start', { email }, { 'x-api-key': withDomain.publicKey });
    expect(start.status).toBe(200);

    // Act
    const response = await peek(email, withDomain.secretKey);

    // Assess
    expect(response.status).toBe(200);
    expect(response.body.code).toMatch(/^[A-Z2-9]{4}-[A-Z2-9]{4}$/);
    // A reserved test domain never resolves: a send would only bounce.
    expect(await mailTo(email)).toEqual([]);
    // A real address of the same application is mailed as ever.
    const real = newEmail('example.test');
    await startIn(withDomain.publicKey, real);
    expect(await mailTo(real)).toHaveLength(1);
    // Peeking does not use the code up.
    const verify = await post(
      '/auth/code/verify',
      { email, code: response.body.code },
      { 'x-api-key': withDomain.publicKey },
    );
    expect(verify.status).toBe(200);
  });

  it('answers every refusal with the same 404', async () => {
    // Prepare: one case per reason to refuse.
    const noDomain = newEmail(SYNTHETIC);
    await startIn(withoutDomain.publicKey, noDomain);
    const realAddress = newEmail('example.test');
    await startIn(withDomain.publicKey, realAddress);
    const neverStarted = newEmail(SYNTHETIC);
    const consumed = newEmail(SYNTHETIC);
    const { code } = await startIn(withDomain.publicKey, consumed);
    const verify = await post(
      '/auth/code/verify',
      { email: consumed, code },
      { 'x-api-key': withDomain.publicKey },
    );
    expect(verify.status).toBe(200);
    const approved = newEmail(SYNTHETIC);
    const approvedCode = (await startIn(withDomain.publicKey, approved)).code;
    const approve = await post(
      '/auth/code/approve',
      { email: approved, code: approvedCode },
      { 'x-api-key': withDomain.publicKey },
    );
    expect(approve.status).toBe(200);
    const destroyed = newEmail(SYNTHETIC);
    const destroyedCode = (await startIn(withDomain.publicKey, destroyed)).code;
    const wrong = wrongCode(destroyedCode);
    for (let attempt = 1; attempt <= 5; attempt++) {
      const guess = await post(
        '/auth/code/verify',
        { email: destroyed, code: wrong },
        { 'x-api-key': withDomain.publicKey },
      );
      expect(guess.status).toBe(attempt < 5 ? 400 : 429);
    }
    const expired = newEmail(SYNTHETIC);
    await startIn(withDomain.publicKey, expired);
    expect((await peek(expired, withDomain.secretKey)).status).toBe(200);
    app.clock.advance(601_000);

    // Act
    const refusals = {
      domainNotConfigured: await peek(noDomain, withoutDomain.secretKey),
      realAddress: await peek(realAddress, withDomain.secretKey),
      noPendingCode: await peek(neverStarted, withDomain.secretKey),
      expiredCode: await peek(expired, withDomain.secretKey),
      consumedCode: await peek(consumed, withDomain.secretKey),
      approvedCode: await peek(approved, withDomain.secretKey),
      destroyedCode: await peek(destroyed, withDomain.secretKey),
    };

    // Assess
    const reference = observable(refusals.domainNotConfigured);
    expect(reference.status).toBe(404);
    expect(reference.body).toEqual({ error: { code: 'NOT_FOUND', message: expect.any(String) } });
    for (const [reason, response] of Object.entries(refusals)) {
      expect({ reason, ...observable(response) }).toEqual({ reason, ...reference });
    }
  });

  it('shows nothing under a stored synthetic domain that is no reserved test name, and keeps no plain code', async () => {
    // Prepare: an item stored before the configuration refused real mail domains.
    const owned = await createOwnedApplication(app);
    await app.deps.db.client.send(
      new UpdateCommand({
        TableName: app.deps.db.table,
        Key: keys.application(owned.applicationId),
        UpdateExpression: 'SET config.authentication.syntheticEmailDomain = :real',
        ExpressionAttributeValues: { ':real': 'gmail.com' },
      }),
    );
    const email = newEmail('gmail.com');
    await startIn(owned.secretKey, email);

    // Act
    const response = await peek(email, owned.secretKey);

    // Assess
    expectError(response, 404, 'NOT_FOUND');
    const { Item } = await app.deps.db.client.send(
      new GetCommand({ TableName: app.deps.db.table, Key: keys.signIn(owned.applicationId, email) }),
    );
    expect(Item?.status).toBe('pending');
    expect(Item?.peekCode).toBeUndefined();
  });

  it('refuses the public key and a missing key with 401 UNAUTHORIZED', async () => {
    // Prepare
    const email = newEmail(SYNTHETIC);
    const { code } = await startIn(withDomain.publicKey, email);

    // Act
    const publicKey = await peek(email, withDomain.publicKey);
    const noKey = await post('/auth/code/peek', { email });

    // Assess
    for (const response of [publicKey, noKey]) {
      expectError(response, 401, 'UNAUTHORIZED');
      expect(response.text).not.toContain(code);
      expect(response.text).not.toContain(code.replace('-', ''));
    }
  });

  it('refuses a body that is not { email } with 400 VALIDATION_ERROR', async () => {
    // Act
    const notAnEmail = await post(
      '/auth/code/peek',
      { email: 'nope' },
      { 'x-api-key': withDomain.secretKey },
    );
    const missing = await post('/auth/code/peek', {}, { 'x-api-key': withDomain.secretKey });

    // Assess
    for (const response of [notAnEmail, missing]) {
      expectError(response, 400, 'VALIDATION_ERROR');
      expect(response.body.error.details.issues).toEqual([{ path: 'email', message: expect.any(String) }]);
    }
  });
});
