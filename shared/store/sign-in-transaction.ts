import { type NewAccount, newAccountWrites } from './accounts.ts';
import type { Db } from './db.ts';
import type { TransactItem } from './errors.ts';
import { keys } from './keys.ts';
import { type SessionRecord, sessionItem } from './sessions.ts';
import { transactWrite } from './transact.ts';

/** What a sign-in writes besides using up what proved the address. */
export interface Consumption {
  /**
   * The conditional write that uses up the proof of the address: the sign-in request's Delete
   * (verify, poll: shared/store/sign-in-requests.ts `requestSpend`) or a social exchange code's
   * (shared/store/social.ts). Its condition failing means another attempt used it first.
   */
  spend: TransactItem;
  /** The platform or the application signed in to. */
  scope: string;
  session: SessionRecord;
  /** A first sign-in: the account it creates. */
  newAccount?: NewAccount;
  /** Poll: the device grant that is used up with the request. */
  deviceCodeHash?: string;
  /**
   * A later sign-in: the user whose `lastSignInAt` is set, and who must not be disabled meanwhile
   * (docs/data-model.md, "Users and tenant organizations").
   */
  existingUserId?: string;
}

/** `raced`: another request consumed (or changed) it first; `accountExists`: the account appeared since it was read. */
/** `conflict`: DynamoDB kept cancelling it for concurrent writes to its items; nothing was written. */
export type ConsumeOutcome =
  | { outcome: 'consumed' }
  | { outcome: 'raced' }
  | { outcome: 'accountExists' }
  | { outcome: 'disabled' }
  | { outcome: 'conflict' };

/**
 * The sign-in's ONE TransactWriteItems: the proof is used up only if its condition still holds (the
 * same, undestroyed, unexpired request in the expected state; an unspent, unexpired exchange code),
 * so of any number of concurrent attempts exactly one writes its session (and, on a first sign-in,
 * the account). It names only items of this address and this sign-in, never one that other sign-ins
 * of the application write (docs/data-model.md, "What a sign-in writes"): the statistics count it
 * from the table's stream.
 */
export async function consumeRequest(db: Db, consumption: Consumption): Promise<ConsumeOutcome> {
  const writes: TransactItem[] = [
    consumption.spend,
    { Put: { TableName: db.table, Item: sessionItem(consumption.session) } },
    ...(consumption.deviceCodeHash
      ? [{ Delete: { TableName: db.table, Key: keys.device(consumption.deviceCodeHash) } }]
      : []),
    ...(consumption.newAccount ? newAccountWrites(db.table, consumption.newAccount) : []),
  ];
  const signedIn = consumption.existingUserId
    ? writes.push(signedInWrite(db.table, consumption.existingUserId, consumption.session.createdAt)) - 1
    : -1;
  const written = await transactWrite(db, writes);
  if (written.outcome === 'written') return { outcome: 'consumed' };
  if (written.outcome === 'conflict') return written;
  if (written.failed.includes(signedIn) && !written.failed.includes(0)) {
    // Disabled since the sign-in read it (or deleted: then the account changed).
    return written.current[signedIn] ? { outcome: 'disabled' } : { outcome: 'accountExists' };
  }
  // Only the spend and the account's Put carry conditions.
  return written.failed.includes(0) ? { outcome: 'raced' } : { outcome: 'accountExists' };
}

/**
 * The user's last sign-in, written only while the user exists and is not disabled
 * (docs/data-model.md, "Users and tenant organizations").
 */
const signedInWrite = (table: string, userId: string, at: string): TransactItem => ({
  Update: {
    TableName: table,
    Key: keys.user(userId),
    UpdateExpression: 'SET lastSignInAt = :at',
    ConditionExpression: 'attribute_exists(pk) AND attribute_not_exists(disabledAt)',
    ExpressionAttributeValues: { ':at': at },
    ReturnValuesOnConditionCheckFailure: 'ALL_OLD',
  },
});
