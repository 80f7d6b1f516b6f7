import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../support/app.ts';
import { freshIp, type TestResponse } from '../support/http-client.ts';
import { newEmail } from '../support/sign-in.ts';

// As across Lambda containers, no two requests read the same millisecond: every reading of the
// clock is a millisecond after the one before, however fast the requests come.
let app: TestApp;
beforeAll(async () => {
  let last = 0;
  app = await startTestApp({ clock: { now: () => (last = Math.max(last + 1, Date.now())) } });
});
afterAll(() => app.close());

/** `count` pending sign-ins, each started from its own address so no start limit is reached. */
const deviceCodes = (count: number) =>
  Promise.all(
    Array.from({ length: count }, async () => {
      const started = await app.request('POST', '/auth/code/start', {
        body: { email: newEmail() },
        ip: freshIp(),
      });
      expect(started.status).toBe(200);
      return started.body.deviceCode as string;
    }),
  );

/** Each device code polled once, all at the same time, from one address. */
const pollAll = (codes: string[], ip: string) =>
  Promise.all(
    codes.map((deviceCode) => app.request('POST', '/auth/code/poll', { body: { deviceCode }, ip })),
  );

const summary = (answers: TestResponse[]) =>
  answers.map((a) => `${a.status} ${a.body?.error?.details?.reason ?? a.body?.error?.code ?? ''}`.trim());

describe('POST /auth/code/poll: a burst from one IP', () => {
  it('answers all 60 parallel first polls of 60 pending sign-ins: a burst within the limit is never refused', async () => {
    const codes = await deviceCodes(60);

    const answers = await pollAll(codes, freshIp());

    expect(summary(answers)).toEqual(Array(60).fill('428 authorization_pending'));
  });

  it('refuses exactly the 15 polls of 75 parallel ones beyond the limit, each with its Retry-After', async () => {
    const codes = await deviceCodes(75);

    const answers = await pollAll(codes, freshIp());

    const refused = answers.filter((a) => a.status === 429);
    expect(summary(refused)).toEqual(Array(15).fill('429 RATE_LIMITED'));
    expect(answers.filter((a) => a.status === 428)).toHaveLength(60);
    for (const answer of refused) {
      const retryAfter = Number(answer.headers['retry-after']);
      expect(retryAfter).toBeGreaterThan(0);
      expect(retryAfter).toBeLessThanOrEqual(60);
      expect(answer.body.error.details.retryAfter).toBe(retryAfter);
    }
  });
});
