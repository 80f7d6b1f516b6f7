import { setTimeout as sleep } from 'node:timers/promises';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FUNCTION_TIMEOUT_SECONDS } from '../../shared/routes.ts';
import { startTestApp, type TestApp } from '../support/app.ts';
import { freshIp, type TestResponse } from '../support/http-client.ts';
import { latestCode } from '../support/inbox.ts';
import { newEmail } from '../support/sign-in.ts';
import { storeWith } from '../support/store.ts';

/** How late each answer of the store arrives; 0: on time. */
let answerDelayMs = 0;
/**
 * The function timeout of the requests sent now: the stack's, except for the slowed request, which
 * gets a short one so that a few slow answers bring it near its end without waiting out 10 s.
 */
let timeoutMs = FUNCTION_TIMEOUT_SECONDS * 1000;
const SHORT_TIMEOUT_MS = 3_000;

/** The app's table through a client whose answers arrive `answerDelayMs` late; each command runs at once. */
const slowStore = (config: TestApp['deps']['config']) =>
  storeWith(config, 'slowAnswers', (next) => async (args) => {
    const delay = answerDelayMs;
    const result = await next(args);
    if (delay > 0) await sleep(delay);
    return result;
  });

let app: TestApp;
beforeAll(async () => {
  app = await startTestApp({
    overrides: (defaults) => ({ db: slowStore(defaults.config) }),
    functionTimeoutMs: () => timeoutMs,
  });
});
afterAll(() => app.close());

/** One request sent with the short timeout while every store answer is `delayMs` late. */
async function whileSlow<T>(delayMs: number, send: () => Promise<T>): Promise<T> {
  answerDelayMs = delayMs;
  timeoutMs = SHORT_TIMEOUT_MS;
  try {
    return await send();
  } finally {
    answerDelayMs = 0;
    timeoutMs = FUNCTION_TIMEOUT_SECONDS * 1000;
  }
}

async function startSignIn() {
  const email = newEmail();
  const start = await app.request('POST', '/auth/code/start', { body: { email }, ip: freshIp() });
  expect(start.status).toBe(200);
  return { email, deviceCode: start.body.deviceCode as string, code: await latestCode(email) };
}

function expectRetryLater(response: TestResponse) {
  expect(response.status, response.text).toBe(503);
  expect(response.body.error.code).toBe('SERVICE_UNAVAILABLE');
  // The out-of-time refusal's own Retry-After (docs/api.md, Endpoints: 503).
  expect(response.headers['retry-after']).toBe('1');
}

// A request that runs out of time (docs/api.md, Endpoints: 503) must not consume the code and leave its
// client without the session. The slow answers below take 1.2 s of the short timeout's 3 s, so the
// commit comes within its last 2 s (the commit margin, shared/sign-in/complete.ts), however fast the
// rest of the request is.
describe('sign-in near the function timeout', () => {
  it('POST /auth/code/verify refuses to commit with 503 and Retry-After; the code still works', async () => {
    const { email, code } = await startSignIn();

    // Two calls before the commit: reading the request with the limit's log, and the limit's write.
    const late = await whileSlow(600, () =>
      app.request('POST', '/auth/code/verify', { body: { email, code }, ip: freshIp() }),
    );
    expectRetryLater(late);

    const again = await app.request('POST', '/auth/code/verify', { body: { email, code }, ip: freshIp() });
    expect(again.status, again.text).toBe(200);
    expect(again.body.user.email).toBe(email);
  });

  it('POST /auth/code/poll refuses to commit with 503 and Retry-After; the device code still works', async () => {
    const { email, code, deviceCode } = await startSignIn();
    const approve = await app.request('POST', '/auth/code/approve', { body: { email, code }, ip: freshIp() });
    expect(approve.status).toBe(200);

    // Four calls before the commit: the grant with the limit's log, the limit, the poll time, the request.
    const late = await whileSlow(300, () =>
      app.request('POST', '/auth/code/poll', { body: { deviceCode }, ip: freshIp() }),
    );
    expectRetryLater(late);

    app.clock.advance(60_000);
    const again = await app.request('POST', '/auth/code/poll', { body: { deviceCode }, ip: freshIp() });
    expect(again.status, again.text).toBe(200);
    expect(again.body.user.email).toBe(email);
  });
});
