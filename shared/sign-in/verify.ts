import type { Deps } from '../deps.ts';
import { newWriteId } from '../random.ts';
import { approveRequest, requestSpend } from '../store/sign-in-requests.ts';
import { alreadyUsed, checkCode } from './check-code.ts';
import { type CompleteInput, completeSignIn, type SignInResult } from './complete.ts';
import { countingFailure } from './failed.ts';
import { MAX_ATTEMPTS } from './request.ts';

export interface CodeInput {
  scope: string;
  email: string;
  code: string;
  sourceIp: string;
  userAgent: string;
}

/** POST /auth/code/verify: pending -> consumed, with a session (docs/data-model.md, Items). */
export async function verifySignIn(
  deps: Deps,
  input: CodeInput & Pick<CompleteInput, 'remainingMs'>,
): Promise<SignInResult> {
  return countingFailure(deps, async () => {
    const { request, account, scopeExists } = await checkCode(deps, input);
    return completeSignIn(deps, {
      subject: request,
      spend: (now) =>
        requestSpend(deps.db.table, request, { status: 'pending', now, maxAttempts: MAX_ATTEMPTS }),
      account,
      scopeExists,
      raced: alreadyUsed,
      userAgent: input.userAgent,
      sourceIp: input.sourceIp,
      remainingMs: input.remainingMs,
    });
  });
}

/** POST /auth/code/approve: pending -> approved; the polling device then gets the session. */
export function approveSignIn(deps: Deps, input: CodeInput): Promise<{ approved: true }> {
  return countingFailure(deps, () => approve(deps, input));
}

async function approve(deps: Deps, input: CodeInput): Promise<{ approved: true }> {
  const { request } = await checkCode(deps, input);
  const approved = await approveRequest(deps.db, request, {
    now: deps.clock.now(),
    maxAttempts: MAX_ATTEMPTS,
    approvalId: newWriteId(deps.random),
  });
  if (approved.outcome === 'raced') throw alreadyUsed();
  return { approved: true };
}
