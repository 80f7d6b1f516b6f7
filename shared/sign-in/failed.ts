import type { Deps } from '../deps.ts';
import { AppError, type ErrorName } from '../errors.ts';

/**
 * The refusals that end a sign-in attempt (verify, approve, poll) without a session: a refused,
 * used or unusable code, a disabled account. Waiting (authorization pending, slow down), limits,
 * busy and out-of-time answers are not failures: the client retries them as they are.
 */
const failures = new Set<ErrorName>([
  'wrongCode',
  'codeExpired',
  'tooManyAttempts',
  'accountDisabled',
  'deviceCodeUnusable',
  'pollExpired',
]);

/** Runs a sign-in attempt, counting a failure in the `SignInsFailed` metric. */
export async function countingFailure<T>(deps: Deps, attempt: () => Promise<T>): Promise<T> {
  try {
    return await attempt();
  } catch (error) {
    if (error instanceof AppError && failures.has(error.kind)) deps.metrics.count('SignInsFailed');
    throw error;
  }
}
