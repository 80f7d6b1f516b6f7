import { UpdateCommand } from '@aws-sdk/lib-dynamodb';
import * as z from 'zod/mini';
import type { Db } from './db.ts';
import { decoder } from './decode.ts';
import { conditionFailureItem, isConditionFailure } from './errors.ts';
import { keys } from './keys.ts';
import type { Read } from './reads.ts';

const DeviceGrant = z.object({
  scope: z.string(),
  email: z.string(),
  requestId: z.string(),
  /** Epoch ms after which the grant is expired, whatever TTL has or has not deleted. */
  validUntil: z.number(),
  /** Seconds a poll must wait after the last (RFC 8628 §3.5: it grows on a poll too early). */
  interval: z.number(),
  lastPolledAt: z.optional(z.number()),
});
/** The grant of a device code (`DEVICE#<hash>`): which sign-in request a poll waits for. */
export type DeviceGrant = z.infer<typeof DeviceGrant>;

/** The read of the grant of a device code, by the code's hash, for a batch. */
export const deviceGrantRead = (deviceCodeHash: string): Read<DeviceGrant> => ({
  key: keys.device(deviceCodeHash),
  decode: decoder('device grant', DeviceGrant),
});

/** TTL removes a code's items a minute after it expires (reads check `validUntil` themselves). */
export const expiresAtOf = (validUntilMs: number) => Math.ceil(validUntilMs / 1000) + 60;

/** The stored grant of a device code, by the code's hash (the code itself is never stored). */
export const deviceItem = (deviceCodeHash: string, grant: DeviceGrant) => ({
  ...keys.device(deviceCodeHash),
  type: 'device',
  ...grant,
  expiresAt: expiresAtOf(grant.validUntil),
});

// A grant consumed meanwhile must not be recreated by a poll (it would have no TTL).
const stillGranted = 'attribute_exists(pk)';
// RFC 8628 §3.5: two concurrent polls cannot both pass as on time; a poll is recorded only over
// the `lastPolledAt` it was judged by.
const firstPoll = `${stillGranted} AND attribute_not_exists(lastPolledAt)`;
const noPollSinceRead = `${stillGranted} AND lastPolledAt = :seen`;

/**
 * `recorded`; `gone`: the grant was consumed meanwhile; `raced`: another poll was recorded since
 * `seen` was read.
 */
export type PollOutcome = { outcome: 'recorded' } | { outcome: 'gone' } | { outcome: 'raced' };

/**
 * Records a poll at `now` with the interval the next poll must wait. `pollId` (random.ts
 * `newWriteId`) is stored with it: an SDK resend of this write that had landed finds it, whereas a
 * concurrent poll of the same millisecond stores its own (`lastPolledAt === now` cannot tell them).
 */
export async function recordPoll(
  db: Db,
  poll: { deviceCodeHash: string; seen: number | undefined; now: number; interval: number; pollId: string },
): Promise<PollOutcome> {
  try {
    await db.client.send(
      new UpdateCommand({
        TableName: db.table,
        Key: keys.device(poll.deviceCodeHash),
        UpdateExpression: 'SET lastPolledAt = :now, #interval = :interval, pollId = :pollId',
        ConditionExpression: poll.seen === undefined ? firstPoll : noPollSinceRead,
        ExpressionAttributeNames: { '#interval': 'interval' },
        ExpressionAttributeValues: {
          ':now': poll.now,
          ':interval': poll.interval,
          ':pollId': poll.pollId,
          ...(poll.seen === undefined ? {} : { ':seen': poll.seen }),
        },
        ReturnValuesOnConditionCheckFailure: 'ALL_OLD',
      }),
    );
    return { outcome: 'recorded' };
  } catch (error) {
    if (!isConditionFailure(error)) throw error;
    const current = conditionFailureItem(error);
    if (!current) return { outcome: 'gone' };
    // Our own write, landed and sent again (its answer lost): recorded, not raced.
    return current.pollId === poll.pollId ? { outcome: 'recorded' } : { outcome: 'raced' };
  }
}
