import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../support/app.ts';
import { bearer, newEmail, signIn } from '../support/sign-in.ts';
import { storeWith } from '../support/store.ts';
import { createOwnedApplication, manage } from '../support/tenancy.ts';

// A management change of an end user takes several DynamoDB calls; the service can stop between any
// two (a Lambda timeout, a throttled call). Disable then enable must never bring old tokens back, and
// a delete that stopped midway must be retryable to the end.

/** The `nth` next DynamoDB command of this name fails, once (as a throttled or timed-out call would). */
let failing: { command: string; nth: number } | null = null;

const failingStore = (config: TestApp['deps']['config']) =>
  storeWith(config, 'failOnce', (next, context) => async (args) => {
    if (failing !== null && (context as { commandName?: string }).commandName === failing.command) {
      failing.nth -= 1;
      if (failing.nth === 0) {
        failing = null;
        throw new Error('the store failed midway');
      }
    }
    return next(args);
  });

let app: TestApp;
beforeAll(async () => {
  app = await startTestApp({
    statistics: true,
    overrides: (defaults) => ({ db: failingStore(defaults.config) }),
  });
});
afterAll(() => app.close());

async function applicationWithUser() {
  const owned = await createOwnedApplication(app);
  const email = newEmail();
  const first = await signIn(app, email, { 'x-api-key': owned.publicKey });
  const second = await signIn(app, email, { 'x-api-key': owned.publicKey });
  const userId = first.body.user.id as string;
  return {
    owned,
    userId,
    tokens: [first.token, second.token],
    path: `/applications/${owned.applicationId}/users/${userId}`,
  };
}

const sessionStatus = async (token: string) =>
  (await app.request('GET', '/auth/session', { headers: bearer(token) })).status;

describe('POST .../disable stopped after writing disabledAt, then POST .../enable', () => {
  it('does not bring the old tokens back', async () => {
    // Prepare: the disable stops before any session is ended (its sessions Query fails).
    const { owned, tokens, path } = await applicationWithUser();
    failing = { command: 'QueryCommand', nth: 1 };
    const disabled = await manage(app, 'POST', `${path}/disable`, { apiKey: owned.secretKey });
    expect(disabled.status).toBe(500);
    expect(await sessionStatus(tokens[0] as string)).toBe(401);
    // Act
    const enabled = await manage(app, 'POST', `${path}/enable`, { apiKey: owned.secretKey });
    // Assess
    expect(enabled.status).toBe(200);
    expect(enabled.body.disabled).toBe(false);
    for (const token of tokens) expect(await sessionStatus(token)).toBe(401);
  });
});

describe('DELETE .../users/{userId} stopped midway', () => {
  it('answers 204 on retry and leaves no session, membership or count behind', async () => {
    // Prepare: the delete stops at its third transaction, leaving its own organization (after the
    // disable and the sessions' end; before the fix, after the account's delete and the sessions').
    const { owned, tokens, path } = await applicationWithUser();
    const secret = { apiKey: owned.secretKey };
    const orgs = `/applications/${owned.applicationId}/organizations`;
    await app.caughtUp();
    const before = await manage(app, 'GET', orgs, secret);
    failing = { command: 'TransactWriteItemsCommand', nth: 3 };
    const stopped = await manage(app, 'DELETE', path, secret);
    expect(stopped.status).toBe(500);
    // Act
    const retried = await manage(app, 'DELETE', path, secret);
    // Assess
    expect(retried.status, retried.text).toBe(204);
    expect((await manage(app, 'GET', path, secret)).status).toBe(404);
    await app.caughtUp();
    const after = await manage(app, 'GET', orgs, secret);
    expect(after.body.page.total).toBe(before.body.page.total - 1);
    const users = await manage(app, 'GET', `/applications/${owned.applicationId}/users`, secret);
    expect(users.body.page.total).toBe(0);
    const stats = await manage(app, 'GET', `/applications/${owned.applicationId}/statistics`, secret);
    expect(stats.body.totals.activeSessions).toBe(0);
    for (const token of tokens) expect(await sessionStatus(token)).toBe(401);
  });
});
