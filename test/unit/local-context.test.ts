import { afterEach, describe, expect, it, vi } from 'vitest';
import { lambdaContext } from '../../shared/local/server.ts';
import { FUNCTION_TIMEOUT_SECONDS } from '../../shared/routes.ts';

afterEach(() => {
  vi.restoreAllMocks();
});

/** The local server's clock, moved by hand: `performance.now()` answers `at.now`. */
function handClock() {
  const at = { now: 50_000 };
  vi.spyOn(performance, 'now').mockImplementation(() => at.now);
  return at;
}

// The local server gives each invocation the remaining time Lambda would (CONTRIBUTING.md, "Like
// Lambda"); the tests of requests near their end give a shorter timeout, so this is where the
// stack's own is held to.
describe("the local server's invocation context", () => {
  it("counts down from the stack's function timeout, from the moment it is made", () => {
    const at = handClock();
    const context = lambdaContext('r1', undefined);
    expect(context.getRemainingTimeInMillis()).toBe(FUNCTION_TIMEOUT_SECONDS * 1000);
    at.now += 2_500;
    expect(context.getRemainingTimeInMillis()).toBe(FUNCTION_TIMEOUT_SECONDS * 1000 - 2_500);
    at.now += FUNCTION_TIMEOUT_SECONDS * 1000;
    expect(context.getRemainingTimeInMillis()).toBe(0);
  });

  it('counts down from a shorter timeout when given one', () => {
    const at = handClock();
    const context = lambdaContext('r2', undefined, 3_000);
    at.now += 1_200;
    expect(context.getRemainingTimeInMillis()).toBe(1_800);
    expect(context.awsRequestId).toBe('r2');
  });
});
