import { UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { sameDigest } from '../crypto/hash.ts';
import type { Deps } from '../deps.ts';
import { fail } from '../errors.ts';
import { limits } from '../rate-limit/limits.ts';
import { consume, rateLogKey } from '../rate-limit/rate-limit.ts';
import { batchGet } from '../store/batch-get.ts';
import { conditionFailureItem, isConditionFailure } from '../store/errors.ts';
import { keys } from '../store/keys.ts';
import { codeHash } from './code.ts';
import { isDestroyed, isExpired, MAX_ATTEMPTS, requestFromItem, type SignInRequest } from './request.ts';

export const tooManyAttempts = () =>
  fail('tooManyAttempts', 'Too many wrong codes: this code no longer works; request a new one');
/** SPEC §3.1: a code works once. */
export const alreadyUsed = () => fail('wrongCode', 'The code was already used', { reason: 'already_used' });
const invalidCode = () => fail('wrongCode', 'The code is not valid; request a new one');

export interface CheckedCode {
  request: SignInRequest;
  /** The address's account item in this scope (profile without its image), or undefined before its first sign-in. */
  account: Record<string, unknown> | undefined;
}

/**
 * The request and the account item of `<scope, email>` (plus `also`) in ONE consistent BatchGetItem.
 * Not the image parts: these requests are not authenticated yet (see completeProfile).
 */
export async function readSignIn(
  deps: Deps,
  scope: string,
  email: string,
  also: { pk: string; sk: string }[] = [],
) {
  const [requestItem, account, ...rest] = await batchGet(deps, [
    keys.signIn(scope, email),
    keys.account(scope, email),
    ...also,
  ]);
  return { request: requestItem ? requestFromItem(requestItem) : null, account, also: rest };
}

/**
 * The shared part of verify and approve (SPEC §3.1): one consistent read of the request, the
 * account and the IP limit's log, the IP limit, then the state checks. A wrong code is counted by a conditional
 * ADD, so concurrent guesses can never exceed MAX_ATTEMPTS.
 */
export async function checkCode(
  deps: Deps,
  input: { scope: string; email: string; code: string; sourceIp: string },
): Promise<CheckedCode> {
  // The limit's log comes with the sign-in read; the hit is counted before any check.
  const { request, account, also } = await readSignIn(deps, input.scope, input.email, [
    rateLogKey(limits.codeCheckPerIp, input.sourceIp),
  ]);
  await consume(deps, limits.codeCheckPerIp, input.sourceIp, also[0]);
  if (!request) throw invalidCode();
  if (isDestroyed(request)) throw tooManyAttempts();
  if (isExpired(request, deps.clock.now())) {
    throw fail('codeExpired', 'The code has expired; request a new one', {
      reason: 'expired',
    });
  }
  if (request.status !== 'pending') throw alreadyUsed();
  if (!sameDigest(codeHash(request.requestId, input.code), request.codeHash)) {
    await countWrongAttempt(deps, request);
  }
  return { request, account };
}

async function countWrongAttempt(deps: Deps, request: SignInRequest): Promise<never> {
  try {
    const { Attributes } = await deps.db.client.send(
      new UpdateCommand({
        TableName: deps.db.table,
        Key: keys.signIn(request.scope, request.email),
        UpdateExpression: 'ADD attempts :one',
        ConditionExpression: 'requestId = :requestId AND attempts < :max',
        ExpressionAttributeValues: { ':one': 1, ':requestId': request.requestId, ':max': MAX_ATTEMPTS },
        ReturnValues: 'UPDATED_NEW',
        ReturnValuesOnConditionCheckFailure: 'ALL_OLD',
      }),
    );
    const attempts = Number(Attributes?.attempts ?? MAX_ATTEMPTS);
    // SPEC §3.1: the fifth wrong attempt destroys the request (it stays, marked, until TTL).
    if (attempts >= MAX_ATTEMPTS) throw tooManyAttempts();
    throw fail('wrongCode', 'The code is not valid', { attemptsLeft: MAX_ATTEMPTS - attempts });
  } catch (error) {
    if (!isConditionFailure(error)) throw error;
    if (conditionFailureItem(error)?.requestId === request.requestId) throw tooManyAttempts();
    throw invalidCode();
  }
}
