import { sameDigest } from '../crypto/hash.ts';
import type { Deps } from '../deps.ts';
import { fail } from '../errors.ts';
import { newWriteId } from '../random.ts';
import { limits } from '../rate-limit/limits.ts';
import { consume, rateLogRead } from '../rate-limit/rate-limit.ts';
import { type AccountRecord, accountRead } from '../store/accounts.ts';
import { applicationRead } from '../store/applications.ts';
import { PLATFORM } from '../store/keys.ts';
import { readRecords } from '../store/reads.ts';
import { countWrongAttempt, type SignInRequest, signInRequestRead } from '../store/sign-in-requests.ts';
import { codeHash } from './code.ts';
import { isDestroyed, isExpired, MAX_ATTEMPTS } from './request.ts';

const tooManyAttempts = () =>
  fail('tooManyAttempts', 'Too many wrong codes: this code no longer works; request a new one');
/** A code works once (docs/security.md, "Sign-in codes"). */
export const alreadyUsed = () => fail('wrongCode', 'The code was already used', { reason: 'already_used' });
/** A disabled user cannot sign in (told only to whoever holds the right code; docs/api.md, Users). */
export const accountDisabled = () =>
  fail('accountDisabled', 'This account is disabled by the application; it cannot sign in');

/** Refuses the sign-in of a disabled account; the request stays as it is, so nothing is lost. */
export function refuseDisabled(account: AccountRecord | undefined): void {
  if (account?.disabledAt !== undefined) throw accountDisabled();
}
const invalidCode = () => fail('wrongCode', 'The code is not valid; request a new one');

export interface CheckedCode {
  request: SignInRequest;
  /** The address's account in this scope, or undefined before its first sign-in. */
  account: AccountRecord | undefined;
  /** The scope still exists: the platform, or an application not deleted since the sign-in began. */
  scopeExists: boolean;
}

/**
 * The reads of a sign-in: the request and the account of `<scope, email>`, and the application of
 * an application's sign-in. Its existence is read, not checked in the sign-in's transaction, where
 * every sign-in of the application would name its item and conflict with the others
 * (docs/data-model.md, "What a sign-in writes").
 */
export const signInReads = (scope: string, email: string) => ({
  request: signInRequestRead(scope, email),
  account: accountRead(scope, email),
  application: scope === PLATFORM ? undefined : applicationRead(scope),
});

/**
 * The shared part of verify and approve (docs/security.md, "Sign-in codes"): one consistent read of the
 * request, the account and the IP limit's log, the IP limit, then the state checks. A wrong code is counted
 * by a conditional ADD, so concurrent guesses can never exceed MAX_ATTEMPTS, and once only, even when the SDK
 * resends the write (store/sign-in-requests.ts `notCountedYet`).
 */
export async function checkCode(
  deps: Deps,
  input: { scope: string; email: string; code: string; sourceIp: string },
): Promise<CheckedCode> {
  // The limit's log comes with the sign-in read; the hit is counted before any check.
  const found = await readRecords(deps.db, {
    ...signInReads(input.scope, input.email),
    limitLog: rateLogRead(limits.codeCheckPerIp, input.sourceIp),
  });
  await consume(deps, limits.codeCheckPerIp, input.sourceIp, found.limitLog);
  const request = found.request;
  if (!request) {
    deps.metrics.refuseCode('wrong');
    throw invalidCode();
  }
  if (isDestroyed(request)) {
    deps.metrics.refuseCode('tooMany');
    throw tooManyAttempts();
  }
  if (isExpired(request, deps.clock.now())) {
    deps.metrics.refuseCode('expired');
    throw fail('codeExpired', 'The code has expired; request a new one', {
      reason: 'expired',
    });
  }
  if (request.status !== 'pending') throw alreadyUsed();
  if (!sameDigest(await codeHash(deps.codeHasher, request.requestId, input.code), request.codeHash)) {
    await refuseWrongCode(deps, request);
  }
  refuseDisabled(found.account);
  return { request, account: found.account, scopeExists: input.scope === PLATFORM || !!found.application };
}

async function refuseWrongCode(deps: Deps, request: SignInRequest): Promise<never> {
  const counted = await countWrongAttempt(deps.db, request, {
    maxAttempts: MAX_ATTEMPTS,
    attemptId: newWriteId(deps.random),
  });
  switch (counted.outcome) {
    case 'counted':
      deps.metrics.refuseCode('wrong');
      // The fifth wrong attempt destroys the request (it stays, marked, until TTL:
      // docs/data-model.md, Items).
      if (counted.attempts >= MAX_ATTEMPTS) throw tooManyAttempts();
      throw fail('wrongCode', 'The code is not valid', { attemptsLeft: MAX_ATTEMPTS - counted.attempts });
    case 'destroyed':
      deps.metrics.refuseCode('tooMany');
      throw tooManyAttempts();
    case 'replaced':
      deps.metrics.refuseCode('wrong');
      throw invalidCode();
  }
}
