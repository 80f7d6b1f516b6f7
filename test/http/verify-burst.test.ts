import { setTimeout as sleep } from 'node:timers/promises';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { startTestApp, type TestApp } from '../support/app.ts';
import { freshIp } from '../support/http-client.ts';
import type { StoredEmail } from '../support/inbox.ts';
import { newEmail } from '../support/sign-in.ts';
import { storeWith } from '../support/store.ts';

const BURST = 100;

/**
 * Each command's answer held until the commands before it were answered, and COMMAND_MS more:
 * a store that serves one command at a time, as DynamoDB Local on a busy machine does. A burst's
 * 300 commands then take 6 s at least, longer than the 3 s that the busy app's function timeout,
 * BUSY_TIMEOUT_MS, leaves before the commit margin (shared/sign-in/complete.ts): a server whose clock
 * started when a request arrived rather than when its handler was invoked would refuse the last
 * half. Each request alone waits for the commands of the 20 invoked at once: 1.2 s at least, 0.8 s
 * of it before its commit check, well within those 3 s. The timeout is shorter than the stack's so the test need not wait out
 * 10 s; it adds no waiting of its own.
 */
const COMMAND_MS = 20;
const BUSY_TIMEOUT_MS = 5_000;
let serial = false;

let queue = Promise.resolve();
const serialStore = (config: TestApp['deps']['config']) =>
  storeWith(config, 'serialAnswers', (next) => async (args) => {
    if (!serial) return next(args);
    const turn = queue.then(() => sleep(COMMAND_MS));
    queue = turn;
    const result = await next(args);
    await turn;
    return result;
  });

let app: TestApp;
let busy: TestApp;
beforeAll(async () => {
  [app, busy] = await Promise.all([
    startTestApp(),
    startTestApp({
      overrides: (defaults) => ({ db: serialStore(defaults.config) }),
      functionTimeoutMs: BUSY_TIMEOUT_MS,
    }),
  ]);
});
afterAll(() => Promise.all([app.close(), busy.close()]));

/** The code of the newest message to each address, from one read of the emulator's store. */
async function codesOf(addresses: string[]): Promise<Map<string, string>> {
  const response = await fetch(`${inject('sesEndpoint')}/store`);
  const { emails } = (await response.json()) as { emails: StoredEmail[] };
  const wanted = new Set(addresses);
  const codes = new Map<string, string>();
  for (const email of emails) {
    const code = email.body.text?.match(/\b[A-Z2-9]{4}-[A-Z2-9]{4}\b/)?.[0];
    const to = email.destination.to.find((address) => wanted.has(address));
    if (code && to) codes.set(to, code);
  }
  return codes;
}

/** BURST addresses with a pending code each, started ten at a time (the burst under test is verify's). */
async function pendingCodes(target: TestApp): Promise<Map<string, string>> {
  const addresses = Array.from({ length: BURST }, () => newEmail());
  for (let i = 0; i < addresses.length; i += 10) {
    const answers = await Promise.all(
      addresses
        .slice(i, i + 10)
        .map((email) => target.request('POST', '/auth/code/start', { body: { email }, ip: freshIp() })),
    );
    for (const answer of answers) expect(answer.status, answer.text).toBe(200);
  }
  const codes = await codesOf(addresses);
  expect(codes.size).toBe(BURST);
  return codes;
}

/** Every code verified at once, each from its own address; the answers' statuses. */
async function verifyAll(target: TestApp, codes: Map<string, string>): Promise<number[]> {
  const answers = await Promise.all(
    [...codes].map(([email, code]) =>
      target.request('POST', '/auth/code/verify', { body: { email, code }, ip: freshIp() }),
    ),
  );
  return answers.map((answer) => answer.status);
}

/** No 5xx among the answers (listed on failure), and a session for every verify. */
function expectEverySession(statuses: number[]): void {
  expect(
    statuses.filter((status) => status >= 500),
    String(statuses),
  ).toEqual([]);
  expect(statuses.filter((status) => status === 200)).toHaveLength(BURST);
}

// Under a burst, local mode answered 30 of 100 verifies with 500 while their
// handlers may still have committed.
describe(`${BURST} parallel verifies of distinct addresses (local mode)`, () => {
  it('are all answered with a session', async () => {
    const statuses = await verifyAll(app, await pendingCodes(app));
    expectEverySession(statuses);
  });

  it('are all answered with a session when the store serves one command at a time', async () => {
    const codes = await pendingCodes(busy);
    serial = true;
    const statuses = await verifyAll(busy, codes).finally(() => {
      serial = false;
    });
    expectEverySession(statuses);
    // 300 commands one at a time, 20 ms apart: 6 s at least.
  });
});
