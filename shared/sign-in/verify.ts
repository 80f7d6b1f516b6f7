import { UpdateCommand } from '@aws-sdk/lib-dynamodb';
import type { Deps } from '../deps.ts';
import { isConditionFailure } from '../store/errors.ts';
import { keys } from '../store/keys.ts';
import { alreadyUsed, checkCode } from './check-code.ts';
import { completeSignIn, type SignInResult } from './complete.ts';
import { MAX_ATTEMPTS } from './request.ts';

export interface CodeInput {
  scope: string;
  email: string;
  code: string;
  sourceIp: string;
  userAgent: string;
}

/** POST /auth/code/verify: pending -> consumed, with a session (SPEC §3.1). */
export async function verifySignIn(deps: Deps, input: CodeInput): Promise<SignInResult> {
  const { request, account } = await checkCode(deps, input);
  return completeSignIn(deps, {
    request,
    account,
    expectStatus: 'pending',
    raced: alreadyUsed,
    userAgent: input.userAgent,
    sourceIp: input.sourceIp,
  });
}

/** POST /auth/code/approve: pending -> approved; the polling device then gets the session. */
export async function approveSignIn(deps: Deps, input: CodeInput): Promise<{ approved: true }> {
  const { request } = await checkCode(deps, input);
  try {
    await deps.db.client.send(
      new UpdateCommand({
        TableName: deps.db.table,
        Key: keys.signIn(request.scope, request.email),
        UpdateExpression: 'SET #status = :approved',
        ConditionExpression:
          'requestId = :requestId AND #status = :pending AND attempts < :max AND validUntil > :now',
        ExpressionAttributeNames: { '#status': 'status' },
        ExpressionAttributeValues: {
          ':approved': 'approved',
          ':pending': 'pending',
          ':requestId': request.requestId,
          ':max': MAX_ATTEMPTS,
          ':now': deps.clock.now(),
        },
      }),
    );
  } catch (error) {
    if (isConditionFailure(error)) throw alreadyUsed();
    throw error;
  }
  return { approved: true };
}
