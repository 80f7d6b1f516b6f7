import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CallCounter } from '../../fixtures/call-counter.ts';
import { startTestApp, type TestApp } from '../support/app.ts';
import { countedBy } from '../support/counted.ts';
import { freshIp } from '../support/http-client.ts';
import { latestCode } from '../support/inbox.ts';
import { bearer, newEmail, signIn } from '../support/sign-in.ts';
import { createTestApplication, startSynthetic } from '../support/tenancy.ts';

const PNG_1x1 =
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==';
const GIF_1x1 = 'R0lGODlhAQABAIAAAAAAAP///yH5BAEAAAAALAAAAAABAAEAAAIBRAA7';

// Call budgets (docs/data-model.md, "Calls per request", keeps the same numbers): a BatchGetItem or
// TransactWriteItems counts as one call.
const counter = new CallCounter();
let app: TestApp;

beforeAll(async () => {
  // The app's real signer and SES mailer (pointed at the emulator), wrapped so calls are counted.
  app = await startTestApp({
    // As deployed: the stack always sets the hourly cap on sign-in emails (one UpdateItem per email).
    env: { MAX_CODE_EMAILS_PER_HOUR: '1000' },
    overrides: countedBy(counter),
  });
  counter.watch(app.deps);
});
afterAll(() => app.close());

/** Runs one request and returns the AWS calls it made. */
async function measure(run: () => Promise<{ status: number }>, expectedStatus = 200) {
  counter.reset();
  const response = await run();
  expect(response.status).toBe(expectedStatus);
  return counter.snapshot();
}

/** The exact budget: these DynamoDB commands in this order (so that many calls), KMS signs and SES sends. */
function expectCalls(
  calls: ReturnType<CallCounter['snapshot']>,
  budget: { commands: string[]; kmsSign: number; sesSend: number },
  label?: string,
) {
  expect(calls, label).toEqual({ dynamodb: budget.commands.length, ...budget });
}

describe('AWS calls per request', () => {
  it('start with an application key: 4 DynamoDB calls and 1 SES send, and one write a minute noting the key in use', async () => {
    const { publicKey } = await createTestApplication(app);
    const startWithKey = () =>
      app.request('POST', '/auth/code/start', {
        body: { email: newEmail() },
        headers: { 'x-api-key': publicKey },
        ip: freshIp(),
      });
    // The key's first use in a minute notes it (docs/api.md, "API keys": last use, at most one write a minute
    // per key).
    expectCalls(await measure(startWithKey), {
      commands: [
        'GetItemCommand',
        'UpdateItemCommand',
        'BatchGetItemCommand',
        'TransactWriteItemsCommand',
        'UpdateItemCommand',
      ],
      kmsSign: 0,
      sesSend: 1,
    });
    expectCalls(await measure(startWithKey), {
      commands: ['GetItemCommand', 'BatchGetItemCommand', 'TransactWriteItemsCommand', 'UpdateItemCommand'],
      kmsSign: 0,
      sesSend: 1,
    });
  });

  it('start on the platform: 3 DynamoDB calls (the limits read, the transaction, the hourly mail cap) and 1 SES send', async () => {
    const calls = await measure(() =>
      app.request('POST', '/auth/code/start', { body: { email: newEmail() }, ip: freshIp() }),
    );
    expectCalls(calls, {
      commands: ['BatchGetItemCommand', 'TransactWriteItemsCommand', 'UpdateItemCommand'],
      kmsSign: 0,
      sesSend: 1,
    });
  });

  it('verify with an application key: 4 DynamoDB calls + 1 KMS Sign, for the first sign-in and later ones alike', async () => {
    const { publicKey } = await createTestApplication(app);
    const headers = { 'x-api-key': publicKey };
    const email = newEmail();
    // The first verify creates the account; the second signs in to it.
    for (const signIn of ['first', 'later']) {
      await app.request('POST', '/auth/code/start', { body: { email }, headers, ip: freshIp() });
      const code = await latestCode(email);
      const calls = await measure(() =>
        app.request('POST', '/auth/code/verify', { body: { email, code }, headers, ip: freshIp() }),
      );
      expectCalls(
        calls,
        {
          commands: [
            'GetItemCommand',
            'BatchGetItemCommand',
            'UpdateItemCommand',
            'TransactWriteItemsCommand',
          ],
          kmsSign: 1,
          sesSend: 0,
        },
        `${signIn} sign-in`,
      );
    }
  });

  it('verify of a user with a photo reads no image: the account item holds only its URL', async () => {
    const email = newEmail();
    await app.request('POST', '/auth/code/start', { body: { email }, ip: freshIp() });
    const first = await app.request('POST', '/auth/code/verify', {
      body: { email, code: await latestCode(email) },
      ip: freshIp(),
    });
    await app.request('POST', '/auth/update-user', {
      body: { image: `data:image/png;base64,${PNG_1x1}` },
      headers: bearer(first.body.token),
    });
    await app.request('POST', '/auth/code/start', { body: { email }, ip: freshIp() });
    const code = await latestCode(email);
    const wrong = await measure(
      () => app.request('POST', '/auth/code/verify', { body: { email, code: 'AAAA-AAAA' }, ip: freshIp() }),
      400,
    );
    expectCalls(wrong, {
      commands: ['BatchGetItemCommand', 'UpdateItemCommand', 'UpdateItemCommand'],
      kmsSign: 0,
      sesSend: 0,
    });
    const right = await measure(() =>
      app.request('POST', '/auth/code/verify', { body: { email, code }, ip: freshIp() }),
    );
    expectCalls(right, {
      commands: ['BatchGetItemCommand', 'UpdateItemCommand', 'TransactWriteItemsCommand'],
      kmsSign: 1,
      sesSend: 0,
    });
  });

  it('update-user replacing an uploaded image: 2 DynamoDB calls (the session read, one transaction)', async () => {
    const { token } = await signIn(app);
    await app.request('POST', '/auth/update-user', {
      body: { image: `data:image/png;base64,${PNG_1x1}` },
      headers: bearer(token),
    });
    const calls = await measure(() =>
      app.request('POST', '/auth/update-user', {
        body: { image: `data:image/gif;base64,${GIF_1x1}` },
        headers: bearer(token),
      }),
    );
    expectCalls(calls, {
      commands: ['BatchGetItemCommand', 'TransactWriteItemsCommand'],
      kmsSign: 0,
      sesSend: 0,
    });
  });

  it('GET /images/{id}: 1 Query; 1 GetItem for a revalidation with its ETag; 2 reads for a 404', async () => {
    const { token } = await signIn(app);
    const updated = await app.request('POST', '/auth/update-user', {
      body: { image: `data:image/png;base64,${PNG_1x1}` },
      headers: bearer(token),
    });
    const path = new URL(updated.body.user.image).pathname;
    let etag = '';
    const read = await measure(async () => {
      const response = await app.request('GET', path);
      etag = String(response.headers.etag);
      return response;
    });
    expectCalls(read, { commands: ['QueryCommand'], kmsSign: 0, sesSend: 0 });
    const revalidation = await measure(
      () => app.request('GET', path, { headers: { 'if-none-match': etag } }),
      304,
    );
    expectCalls(revalidation, { commands: ['GetItemCommand'], kmsSign: 0, sesSend: 0 });

    await app.request('POST', '/auth/update-user', { body: { image: '' }, headers: bearer(token) });
    const removed = await measure(() => app.request('GET', path), 404);
    expectCalls(removed, { commands: ['QueryCommand', 'QueryCommand'], kmsSign: 0, sesSend: 0 });
    const removedRevalidation = await measure(
      () => app.request('GET', path, { headers: { 'if-none-match': etag } }),
      404,
    );
    expectCalls(removedRevalidation, {
      commands: ['GetItemCommand', 'QueryCommand'],
      kmsSign: 0,
      sesSend: 0,
    });
  });

  it('peek: 3 DynamoDB calls (key, then limit + application + request in one read, then the limit)', async () => {
    const { secretKey, email } = await startSynthetic(app);
    const calls = await measure(() =>
      app.request('POST', '/auth/code/peek', {
        body: { email },
        headers: { 'x-api-key': secretKey },
        ip: freshIp(),
      }),
    );
    expectCalls(calls, {
      commands: ['GetItemCommand', 'BatchGetItemCommand', 'UpdateItemCommand'],
      kmsSign: 0,
      sesSend: 0,
    });
  });

  it('GET /auth/session with a Bearer token: 1 DynamoDB call and no KMS call', async () => {
    const { publicKey } = await createTestApplication(app);
    const email = newEmail();
    const headers = { 'x-api-key': publicKey };
    await app.request('POST', '/auth/code/start', { body: { email }, headers, ip: freshIp() });
    const verify = await app.request('POST', '/auth/code/verify', {
      body: { email, code: await latestCode(email) },
      headers,
      ip: freshIp(),
    });
    const calls = await measure(() =>
      app.request('GET', '/auth/session', { headers: bearer(verify.body.token, headers) }),
    );
    expectCalls(calls, { commands: ['BatchGetItemCommand'], kmsSign: 0, sesSend: 0 });
  });
});
