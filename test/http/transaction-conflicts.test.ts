import { TransactionCanceledException } from '@aws-sdk/client-dynamodb';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../support/app.ts';
import { freshIp, type TestResponse } from '../support/http-client.ts';
import { latestCode } from '../support/inbox.ts';
import { connect, newCode, refreshRequest, tokenRequest } from '../support/oauth-token.ts';
import { bearer, newEmail, signIn } from '../support/sign-in.ts';
import { storeWith } from '../support/store.ts';
import { createOwnedApplication } from '../support/tenancy.ts';

// Real DynamoDB cancels a transaction that touches an item another transaction is writing
// (`TransactionConflict`); DynamoDB Local never does. shared/store/conflict-retry.ts retries a few
// times; when the conflicts outlast it, nothing was written and the client is told to come back in
// a moment (429 RATE_LIMITED, reason `busy`), never a 500.

/** Whether every TransactWriteItems is cancelled as conflicting, as a busy real table can. */
let conflicting = false;

const conflictingStore = (config: TestApp['deps']['config']) =>
  storeWith(config, 'conflicts', (next, context) => async (args) => {
    if (conflicting && (context as { commandName?: string }).commandName === 'TransactWriteItemsCommand') {
      throw new TransactionCanceledException({
        message: 'Transaction cancelled',
        $metadata: {},
        CancellationReasons: [{ Code: 'TransactionConflict' }, { Code: 'None' }],
      });
    }
    return next(args);
  });

let app: TestApp;
beforeAll(async () => {
  app = await startTestApp({ overrides: (defaults) => ({ db: conflictingStore(defaults.config) }) });
});
afterAll(() => app.close());

const busy = { code: 'RATE_LIMITED', details: { reason: 'busy', retryAfter: 1 } };

describe('transactions that real DynamoDB keeps cancelling for conflicts', () => {
  it('start answers 429 busy with Retry-After, and works once the conflicts pass', async () => {
    const email = newEmail();
    conflicting = true;
    const refused = await app.request('POST', '/auth/code/start', { body: { email }, ip: freshIp() });
    conflicting = false;
    expect(refused.status).toBe(429);
    expect(refused.body.error).toMatchObject(busy);
    expect(refused.headers['retry-after']).toBe('1');
    const started = await app.request('POST', '/auth/code/start', { body: { email }, ip: freshIp() });
    expect(started.status).toBe(200);
  });

  it('verify answers 429 busy, and the code still works afterwards', async () => {
    const email = newEmail();
    await app.request('POST', '/auth/code/start', { body: { email }, ip: freshIp() });
    const code = await latestCode(email);
    conflicting = true;
    const refused = await app.request('POST', '/auth/code/verify', { body: { email, code }, ip: freshIp() });
    conflicting = false;
    expect(refused.status).toBe(429);
    expect(refused.body.error).toMatchObject(busy);
    const verified = await app.request('POST', '/auth/code/verify', { body: { email, code }, ip: freshIp() });
    expect(verified.status).toBe(200);
  });

  it('update-user answers 429 busy and changes nothing, then works', async () => {
    const { token } = await signIn(app);
    conflicting = true;
    const refused = await app.request('POST', '/auth/update-user', {
      body: { name: 'Ada' },
      headers: bearer(token),
    });
    conflicting = false;
    expect(refused.status).toBe(429);
    expect(refused.body.error).toMatchObject(busy);
    expect((await app.request('GET', '/auth/session', { headers: bearer(token) })).body.user.name).toBeNull();
    const updated = await app.request('POST', '/auth/update-user', {
      body: { name: 'Ada' },
      headers: bearer(token),
    });
    expect(updated.body.user.name).toBe('Ada');
  });

  // /oauth/token answers RFC 6749 errors (docs/oauth.md, "Token endpoint"), so `busy` is a 429 with an
  // `error` member.
  function expectOauthBusy(refused: TestResponse) {
    expect(refused.status, refused.text).toBe(429);
    expect(refused.headers['retry-after']).toBe('1');
    expect(refused.headers['cache-control']).toBe('no-store');
    // shared/http/respond.ts: a rate limit's nearest RFC 6749 value, never the platform envelope.
    expect(refused.body).toEqual({ error: 'invalid_request', error_description: expect.any(String) });
  }

  it('an authorization-code exchange answers 429 with Retry-After, and the code still exchanges', async () => {
    const owned = await createOwnedApplication(app);
    const issued = await newCode(app, { userId: owned.owner.userId, applicationId: owned.applicationId });
    conflicting = true;
    const refused = await tokenRequest(app, issued.fields);
    conflicting = false;
    expectOauthBusy(refused);
    const exchanged = await tokenRequest(app, issued.fields);
    expect(exchanged.status, exchanged.text).toBe(200);
    expect((await refreshRequest(app, exchanged.body.refresh_token)).status).toBe(200);
  });

  it('a refresh answers 429 with Retry-After, and the refresh token still rotates', async () => {
    const owned = await createOwnedApplication(app);
    const { tokens } = await connect(app, { userId: owned.owner.userId, applicationId: owned.applicationId });
    conflicting = true;
    const refused = await refreshRequest(app, tokens.refresh_token);
    conflicting = false;
    expectOauthBusy(refused);
    const rotated = await refreshRequest(app, tokens.refresh_token);
    expect(rotated.status, rotated.text).toBe(200);
  });
});
