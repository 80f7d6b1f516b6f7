import { UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { sha256Hex } from '../crypto/hash.ts';
import type { Deps } from '../deps.ts';
import { AppError, fail } from '../errors.ts';
import { limits } from '../rate-limit/limits.ts';
import { consume, rateLogKey } from '../rate-limit/rate-limit.ts';
import { batchGet } from '../store/batch-get.ts';
import { conditionFailureItem, isConditionFailure } from '../store/errors.ts';
import { keys } from '../store/keys.ts';
import { readSignIn } from './check-code.ts';
import { completeSignIn, type SignInResult } from './complete.ts';
import {
  type DeviceGrant,
  deviceFromItem,
  isDestroyed,
  isExpired,
  POLL_INTERVAL_SECONDS,
} from './request.ts';

// DESIGN §5: unknown, consumed, replaced or destroyed device codes all answer the same.
const unusable = () => fail('deviceCodeUnusable', 'This device code cannot be used; start again');
const expired = () => fail('pollExpired', 'The sign-in request has expired; start again');

/**
 * POST /auth/code/poll (RFC 8628 §3.4-3.5 style): 428 while pending, 429 slow_down (interval
 * grows by 5 s and stays grown) when polled early, 200 with the session once approved. A device
 * code works once.
 */
export async function pollSignIn(
  deps: Deps,
  input: { deviceCode: string; sourceIp: string; userAgent: string },
): Promise<SignInResult> {
  const deviceKey = keys.device(sha256Hex(input.deviceCode));
  const [Item, rateLog] = await batchGet(deps, [deviceKey, rateLogKey(limits.pollPerIp, input.sourceIp)]);
  // Counted before anything about the device code is told, so unknown codes cannot be probed freely.
  await consume(deps, limits.pollPerIp, input.sourceIp, rateLog);
  if (!Item) throw unusable();
  const device = deviceFromItem(Item);
  const now = deps.clock.now();
  if (isExpired(device, now)) throw expired();
  await recordPoll(deps, deviceKey, device, now);

  const { request, account } = await readSignIn(deps, device.scope, device.email);
  if (!request) throw unusable();
  if (request.requestId !== device.requestId || isDestroyed(request)) throw unusable();
  if (isExpired(request, now)) throw expired();
  if (request.status === 'pending') {
    throw fail('authorizationPending', 'Waiting for the code to be approved', {
      reason: 'authorization_pending',
      interval: device.interval,
    });
  }
  return completeSignIn(deps, {
    request,
    account,
    expectStatus: 'approved',
    alsoWrite: [{ Delete: { TableName: deps.db.table, Key: deviceKey } }],
    raced: unusable,
    userAgent: input.userAgent,
    sourceIp: input.sourceIp,
  });
}

/** Enforces the interval: an early poll grows it by 5 s (kept for later polls) and answers 429. */
async function recordPoll(deps: Deps, key: { pk: string; sk: string }, device: DeviceGrant, now: number) {
  const early = device.lastPolledAt !== undefined && now - device.lastPolledAt < device.interval * 1000;
  const interval = early ? device.interval + POLL_INTERVAL_SECONDS : device.interval;
  try {
    await deps.db.client.send(
      new UpdateCommand({
        TableName: deps.db.table,
        Key: key,
        UpdateExpression: 'SET lastPolledAt = :now, #interval = :interval',
        // Two concurrent polls cannot both pass as on time: the second sees a changed lastPolledAt.
        // attribute_exists(pk): a grant consumed meanwhile must not be recreated (without a TTL).
        ConditionExpression:
          device.lastPolledAt === undefined
            ? 'attribute_exists(pk) AND attribute_not_exists(lastPolledAt)'
            : 'attribute_exists(pk) AND lastPolledAt = :seen',
        ExpressionAttributeNames: { '#interval': 'interval' },
        ExpressionAttributeValues: {
          ':now': now,
          ':interval': interval,
          ...(device.lastPolledAt === undefined ? {} : { ':seen': device.lastPolledAt }),
        },
        ReturnValuesOnConditionCheckFailure: 'ALL_OLD',
      }),
    );
  } catch (error) {
    if (!isConditionFailure(error)) throw error;
    if (!conditionFailureItem(error)) throw unusable();
    throw slowDown(interval);
  }
  if (early) throw slowDown(interval);
}

function slowDown(interval: number): AppError {
  return new AppError('rateLimited', `Polling too fast; wait ${interval} s between polls`, {
    details: { reason: 'slow_down', interval },
    headers: { 'retry-after': String(interval) },
  });
}
