import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Limit } from '../../shared/rate-limit/limits.ts';
import { consume, newHit, rateLogFrom, rateLogKey, refundHit } from '../../shared/rate-limit/rate-limit.ts';
import { readItems } from '../../shared/store/batch.ts';
import { storedState } from '../../shared/store/rate-logs.ts';
import { startTestApp, type TestApp } from '../support/app.ts';

let app: TestApp;
beforeAll(async () => {
  app = await startTestApp();
});
afterAll(() => app.close());

const limit: Limit = { bucket: 'refund', max: 3, windowSeconds: 60 };
let subjects = 0;
const freshSubject = () => `subject-${subjects++}`;

/** The stored log item of `subject`, as DynamoDB Local holds it (undefined: none). */
async function stored(subject: string) {
  const { log } = await readItems(app.deps.db, { log: rateLogKey(limit, subject) });
  return log;
}

describe('refundHit() against DynamoDB Local (start gives a hit back when its email was not sent)', () => {
  it('takes a counted hit out once; a second refund of it leaves the log as it was', async () => {
    const subject = freshSubject();
    await consume(app.deps, limit, subject, undefined);
    const counted = rateLogFrom(limit, subject, storedState(await stored(subject)));
    const [hit] = counted.hits;
    expect(counted).toMatchObject({ version: 1, hits: [expect.anything()] });

    await refundHit(app.deps, counted, hit!);
    const afterFirst = await stored(subject);
    expect(afterFirst).toMatchObject({ version: 2 });
    expect(afterFirst?.hits).toBeUndefined();

    await refundHit(app.deps, counted, hit!);
    expect(await stored(subject)).toEqual(afterFirst);
  });

  it("leaves another request's hit and the version alone when the hit is not in the log", async () => {
    const subject = freshSubject();
    await consume(app.deps, limit, subject, undefined);
    const before = await stored(subject);

    await refundHit(
      app.deps,
      rateLogFrom(limit, subject, storedState(before)),
      newHit(app.deps.random, app.clock.now()),
    );

    expect(await stored(subject)).toEqual(before);
  });

  it('does not create a log that does not exist (a refund after TTL removed it)', async () => {
    const subject = freshSubject();
    const log = rateLogFrom(limit, subject, undefined);

    await refundHit(app.deps, log, newHit(app.deps.random, app.clock.now()));

    expect(await stored(subject)).toBeUndefined();
  });
});
