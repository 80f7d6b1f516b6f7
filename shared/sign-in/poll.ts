import { sha256Hex } from '../crypto/hash.ts';
import type { Deps } from '../deps.ts';
import { AppError, fail } from '../errors.ts';
import { newWriteId } from '../random.ts';
import { limits } from '../rate-limit/limits.ts';
import { consume, rateLogRead } from '../rate-limit/rate-limit.ts';
import { type DeviceGrant, deviceGrantRead, recordPoll } from '../store/device-grants.ts';
import { PLATFORM } from '../store/keys.ts';
import { readRecords } from '../store/reads.ts';
import { requestSpend } from '../store/sign-in-requests.ts';
import { refuseDisabled, signInReads } from './check-code.ts';
import { type CompleteInput, completeSignIn, type SignInResult } from './complete.ts';
import { countingFailure } from './failed.ts';
import { isDestroyed, isExpired, MAX_ATTEMPTS, POLL_INTERVAL_SECONDS } from './request.ts';

// Unknown, consumed, replaced or destroyed device codes all answer the same (docs/api.md, error table).
const unusable = () => fail('deviceCodeUnusable', 'This device code cannot be used; start again');
const expired = () => fail('pollExpired', 'The sign-in request has expired; start again');

/**
 * POST /auth/code/poll (RFC 8628 §3.4-3.5 style): 428 while pending, 429 slow_down (interval
 * grows by 5 s and stays grown) when polled early, 200 with the session once approved. A device
 * code works once.
 */
export function pollSignIn(deps: Deps, input: PollInput): Promise<SignInResult> {
  return countingFailure(deps, () => poll(deps, input));
}

type PollInput = { deviceCode: string; sourceIp: string; userAgent: string } & Pick<
  CompleteInput,
  'remainingMs'
>;

async function poll(deps: Deps, input: PollInput): Promise<SignInResult> {
  const deviceCodeHash = sha256Hex(input.deviceCode);
  const polled = await readRecords(deps.db, {
    device: deviceGrantRead(deviceCodeHash),
    limitLog: rateLogRead(limits.pollPerIp, input.sourceIp),
  });
  // Counted before anything about the device code is told, so unknown codes cannot be probed freely.
  await consume(deps, limits.pollPerIp, input.sourceIp, polled.limitLog);
  const device = polled.device;
  if (!device) throw unusable();
  const now = deps.clock.now();
  if (isExpired(device, now)) throw expired();
  await enforceInterval(deps, deviceCodeHash, device, now);

  const { request, account, application } = await readRecords(
    deps.db,
    signInReads(device.scope, device.email),
  );
  if (!request) throw unusable();
  if (request.requestId !== device.requestId || isDestroyed(request)) throw unusable();
  if (isExpired(request, now)) throw expired();
  if (request.status === 'pending') {
    throw fail('authorizationPending', 'Waiting for the code to be approved', {
      reason: 'authorization_pending',
      interval: device.interval,
    });
  }
  refuseDisabled(account);
  return completeSignIn(deps, {
    subject: request,
    spend: (now) =>
      requestSpend(deps.db.table, request, { status: 'approved', now, maxAttempts: MAX_ATTEMPTS }),
    account,
    scopeExists: device.scope === PLATFORM || application !== undefined,
    deviceCodeHash,
    raced: unusable,
    userAgent: input.userAgent,
    sourceIp: input.sourceIp,
    remainingMs: input.remainingMs,
  });
}

/** Enforces the interval: an early poll grows it by 5 s (kept for later polls) and answers 429. */
async function enforceInterval(deps: Deps, deviceCodeHash: string, device: DeviceGrant, now: number) {
  const early = device.lastPolledAt !== undefined && now - device.lastPolledAt < device.interval * 1000;
  const interval = early ? device.interval + POLL_INTERVAL_SECONDS : device.interval;
  const recorded = await recordPoll(deps.db, {
    deviceCodeHash,
    seen: device.lastPolledAt,
    now,
    interval,
    pollId: newWriteId(deps.random),
  });
  if (recorded.outcome === 'gone') throw unusable();
  // Another poll was recorded since this one read the grant: they cannot both be on time.
  if (recorded.outcome === 'raced' || early) throw slowDown(interval);
}

function slowDown(interval: number): AppError {
  return new AppError('rateLimited', `Polling too fast; wait ${interval} s between polls`, {
    details: { reason: 'slow_down', interval },
    headers: { 'retry-after': String(interval) },
  });
}
