import { UpdateCommand } from '@aws-sdk/lib-dynamodb';
import * as z from 'zod/mini';
import type { Db } from './db.ts';
import { decoder } from './decode.ts';
import { isConditionFailure } from './errors.ts';
import { keys } from './keys.ts';
import type { Read } from './reads.ts';

const MailCapCounter = z.object({ sent: z.optional(z.number()) });
/** The sign-in emails counted in one clock hour (docs/security.md, "Mail reputation"). */
export type MailCapCounter = z.infer<typeof MailCapCounter>;

/** The read of `hour`'s counter, for a batch. */
export const mailCapRead = (hour: number): Read<MailCapCounter> => ({
  key: keys.mailCap(hour),
  decode: decoder('mail cap', MailCapCounter),
});

// The counter grows only while it is below the cap: concurrent starts each take a slot by one
// atomic ADD, and the (cap + 1)-th fails its condition whoever wrote meanwhile (no read, no race).
const roomForOne = 'attribute_not_exists(sent) OR sent < :max';
// A slot is given back only while one is counted: a repeated give-back never goes below zero.
const oneCounted = 'sent > :zero';

/** `full`: `max` emails of the hour were counted already; nothing was written. */
export type SlotOutcome = { outcome: 'taken' } | { outcome: 'full' };

/**
 * Counts one email in `hour` if fewer than `max` are. An SDK retry of a write whose answer was
 * lost counts it twice: the cap then errs towards refusing, never towards sending more.
 */
export async function takeMailSlot(
  db: Db,
  slot: { hour: number; max: number; expiresAt: number },
): Promise<SlotOutcome> {
  try {
    await db.client.send(
      new UpdateCommand({
        TableName: db.table,
        Key: keys.mailCap(slot.hour),
        UpdateExpression: 'ADD sent :one SET expiresAt = :expiresAt',
        ConditionExpression: roomForOne,
        ExpressionAttributeValues: { ':one': 1, ':max': slot.max, ':expiresAt': slot.expiresAt },
      }),
    );
    return { outcome: 'taken' };
  } catch (error) {
    if (!isConditionFailure(error)) throw error;
    return { outcome: 'full' };
  }
}

/** Gives back a slot of `hour` (the email did not go out after all). */
export async function giveBackMailSlot(db: Db, hour: number): Promise<void> {
  try {
    await db.client.send(
      new UpdateCommand({
        TableName: db.table,
        Key: keys.mailCap(hour),
        UpdateExpression: 'ADD sent :minusOne',
        ConditionExpression: oneCounted,
        ExpressionAttributeValues: { ':minusOne': -1, ':zero': 0 },
      }),
    );
  } catch (error) {
    if (!isConditionFailure(error)) throw error;
  }
}
