import { createHash, createHmac } from 'node:crypto';
import { GetCommand } from '@aws-sdk/lib-dynamodb';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { normaliseCode } from '../../shared/sign-in/code.ts';
import { keys, PLATFORM } from '../../shared/store/keys.ts';
import { startTestApp, TEST_CODE_KEY, type TestApp } from '../support/app.ts';
import { freshIp } from '../support/http-client.ts';
import { latestCode } from '../support/inbox.ts';
import { newEmail } from '../support/sign-in.ts';

let app: TestApp;
beforeAll(async () => {
  app = await startTestApp();
});
afterAll(() => app.close());

const storedRequest = async (email: string) => {
  const { Item } = await app.deps.db.client.send(
    new GetCommand({ TableName: app.deps.db.table, Key: keys.signIn(PLATFORM, email), ConsistentRead: true }),
  );
  return Item as { requestId: string; codeHash: string };
};

describe('the stored sign-in code', () => {
  it('is an HMAC under the server-side code key, not a SHA-256 a reader of the table could search', async () => {
    const email = newEmail();
    const started = await app.request('POST', '/auth/code/start', { body: { email }, ip: freshIp() });
    expect(started.status).toBe(200);
    const code = normaliseCode(await latestCode(email));
    const { requestId, codeHash } = await storedRequest(email);

    const message = `${requestId}:${code}`;
    expect(codeHash).not.toBe(createHash('sha256').update(message).digest('hex'));
    expect(codeHash).toBe(
      createHmac('sha256', Buffer.from(TEST_CODE_KEY, 'hex')).update(message).digest('hex'),
    );
  });

  it('still lets the emailed code sign in', async () => {
    const email = newEmail();
    await app.request('POST', '/auth/code/start', { body: { email }, ip: freshIp() });
    const code = await latestCode(email);
    const verified = await app.request('POST', '/auth/code/verify', { body: { email, code }, ip: freshIp() });
    expect(verified.status).toBe(200);
  });
});
