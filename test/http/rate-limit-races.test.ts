import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Clock } from '../../shared/clock.ts';
import type { Deps } from '../../shared/deps.ts';
import { AppError } from '../../shared/errors.ts';
import type { Limit } from '../../shared/rate-limit/limits.ts';
import { consume, rateLogKey } from '../../shared/rate-limit/rate-limit.ts';
import { readItems } from '../../shared/store/batch.ts';
import { storedState } from '../../shared/store/rate-logs.ts';
import { startTestApp, type TestApp } from '../support/app.ts';

let app: TestApp;
beforeAll(async () => {
  app = await startTestApp();
});
afterAll(() => app.close());

let subjects = 0;
const freshSubject = () => `subject-${subjects++}`;

/** The test clock stands still: every hit falls in the same millisecond. */
const fixed = (): Deps => app.deps;
/** Every reading is a millisecond later, as under load with the real clock: no two hits share one. */
function ticking(): Deps {
  let ticks = 0;
  const clock: Clock = { now: () => app.clock.now() + ticks++ };
  return { ...app.deps, clock };
}

/** One request's hit, as the routes make it: the log comes with the request's read, then consume(). */
async function hit(deps: Deps, limit: Limit, subject: string): Promise<'allowed' | AppError> {
  const found = await readItems(deps.db, { log: rateLogKey(limit, subject) });
  try {
    await consume(deps, limit, subject, storedState(found.log));
    return 'allowed';
  } catch (error) {
    if (error instanceof AppError) return error;
    throw error;
  }
}

/** The stored log of `subject`: its version and how many hits it holds. */
async function stored(limit: Limit, subject: string) {
  const { log } = await readItems(app.deps.db, { log: rateLogKey(limit, subject) });
  return { version: log?.version, hits: (log?.hits as Set<string> | undefined)?.size ?? 0 };
}

const concurrentHits = (deps: Deps, count: number, limit: Limit, subject: string) =>
  Promise.all(Array.from({ length: count }, () => hit(deps, limit, subject)));

describe('consume() under concurrency, against DynamoDB Local', () => {
  it('allows exactly 10 of 30 concurrent hits in one millisecond with a limit of 10', async () => {
    const limit: Limit = { bucket: 'race', max: 10, windowSeconds: 60 };

    const outcomes = await concurrentHits(fixed(), 30, limit, freshSubject());

    expect(outcomes.filter((outcome) => outcome === 'allowed')).toHaveLength(10);
    const refused = outcomes.filter((outcome) => outcome instanceof AppError);
    expect(refused).toHaveLength(20);
    for (const error of refused) {
      expect(error.code).toBe('RATE_LIMITED');
      expect(error.details?.reason).toBeUndefined();
      // All ten counted hits share this millisecond: the first leaves the window in exactly 60 s.
      expect(error.headers?.['retry-after']).toBe('60');
    }
  });

  it('allows exactly 10 of 30 concurrent hits in distinct milliseconds with a limit of 10', async () => {
    const limit: Limit = { bucket: 'race', max: 10, windowSeconds: 60 };

    const outcomes = await concurrentHits(ticking(), 30, limit, freshSubject());

    expect(outcomes.filter((outcome) => outcome === 'allowed')).toHaveLength(10);
    const refused = outcomes.filter((outcome) => outcome instanceof AppError);
    expect(refused.map((error) => error.details?.reason ?? error.code)).toEqual(
      Array(20).fill('RATE_LIMITED'),
    );
  });

  // A burst within the limit is never refused (docs/security.md, "Rate limits").
  for (const [name, deps] of [
    ['one millisecond', fixed],
    ['distinct milliseconds', ticking],
  ] as const) {
    it(`allows all 60 concurrent hits within a limit of 60, in ${name}`, async () => {
      const limit: Limit = { bucket: 'burst', max: 60, windowSeconds: 60 };

      const outcomes = await concurrentHits(deps(), 60, limit, freshSubject());

      const refused = outcomes.filter((outcome) => outcome instanceof AppError);
      expect(refused.map((error) => error.details?.reason ?? error.code)).toEqual([]);
    });
  }

  it('prunes a full log whose hits have all left the window: 60 concurrent hits pass, the next is refused', async () => {
    const limit: Limit = { bucket: 'sliding', max: 60, windowSeconds: 60 };
    const subject = freshSubject();
    await concurrentHits(fixed(), 60, limit, subject);
    app.clock.advance(60_000);

    const outcomes = await concurrentHits(ticking(), 60, limit, subject);

    expect(outcomes.filter((outcome) => outcome !== 'allowed')).toEqual([]);
    const next = await hit(fixed(), limit, subject);
    expect(next).toBeInstanceOf(AppError);
    expect((next as AppError).details?.reason).toBeUndefined();
    expect((await stored(limit, subject)).hits).toBe(60);
  });

  it('counts a hit once when its answer was lost and the SDK sent the write again', async () => {
    const limit: Limit = { bucket: 'lost-answer', max: 1, windowSeconds: 60 };
    const subject = freshSubject();
    let sent = 0;
    // Inside the SDK's retries: the first UpdateItem lands, then its answer is lost as a timeout.
    app.deps.db.client.middlewareStack.add(
      (next, context) => async (args) => {
        const answer = await next(args);
        if (context.commandName === 'UpdateItemCommand' && sent++ === 0) {
          throw Object.assign(new Error('answer lost'), { name: 'TimeoutError', $metadata: {} });
        }
        return answer;
      },
      { step: 'deserialize', name: 'loseFirstAnswer' },
    );
    try {
      expect(await hit(fixed(), limit, subject)).toBe('allowed');
    } finally {
      app.deps.db.client.middlewareStack.remove('loseFirstAnswer');
    }

    // The resent write found the log full of its own hit, and took it for its own.
    expect(sent).toBe(2);
    expect(await stored(limit, subject)).toEqual({ version: 1, hits: 1 });
    const next = await hit(fixed(), limit, subject);
    expect((next as AppError).headers?.['retry-after']).toBe('60');
  });
});
