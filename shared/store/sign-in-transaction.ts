import { type NewAccount, newAccountWrites } from './accounts.ts';
import type { Db } from './db.ts';
import type { TransactItem } from './errors.ts';
import { keys, PLATFORM } from './keys.ts';
import { type SessionRecord, sessionItem } from './sessions.ts';
import { type SignInCount, signInCountWrites } from './statistics.ts';
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
  /** A sign-in of an application: the statistics counters it adds to, in the same transaction. */
  counts?: SignInCount;
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
  | { outcome: 'applicationGone' }
  | { outcome: 'conflict' };

/**
 * The sign-in's ONE TransactWriteItems: the proof is used up only if its condition still holds (the
 * same, undestroyed, unexpired request in the expected state; an unspent, unexpired exchange code),
 * so of any number of concurrent attempts exactly one writes its session (and, on a first sign-in,
 * the account).
 */
export async function consumeRequest(db: Db, consumption: Consumption): Promise<ConsumeOutcome> {
  const writes: TransactItem[] = [
    consumption.spend,
    { Put: { TableName: db.table, Item: sessionItem(consumption.session) } },
    ...(consumption.deviceCodeHash
      ? [{ Delete: { TableName: db.table, Key: keys.device(consumption.deviceCodeHash) } }]
      : []),
    ...(consumption.newAccount ? newAccountWrites(db.table, consumption.newAccount) : []),
    // Last, unconditioned: a counted sign-in always happened and none is left uncounted, and the
    // indexes of the conditioned items above stay as they are.
    ...(consumption.counts ? signInCountWrites(db.table, consumption.counts) : []),
  ];
  const signedIn = consumption.existingUserId
    ? writes.push(signedInWrite(db.table, consumption.existingUserId, consumption.session.createdAt)) - 1
    : -1;
  const application = applicationCheck(db.table, writes, consumption.scope);
  const written = await transactWrite(db, writes);
  if (written.outcome === 'written') return { outcome: 'consumed' };
  if (written.outcome === 'conflict') return written;
  // The application was deleted since the request started (poll reads no key that would say so).
  if (application >= 0 && written.failed.includes(application) && !written.failed.includes(0)) {
    return { outcome: 'applicationGone' };
  }
  if (written.failed.includes(signedIn) && !written.failed.includes(0)) {
    // Disabled since the sign-in read it (or deleted: then the account changed).
    return written.current[signedIn] ? { outcome: 'disabled' } : { outcome: 'accountExists' };
  }
  // Only the spend and the account's Put carry conditions.
  return written.failed.includes(0) ? { outcome: 'raced' } : { outcome: 'accountExists' };
}

/**
 * The index of the write that needs the application to exist: the new user's count on it (a first
 * sign-in, shared/store/users.ts `countNewUser`, conditioned on it), else a ConditionCheck added
 * here (a transaction may hold one operation per item). -1 on the platform.
 */
function applicationCheck(table: string, writes: TransactItem[], scope: string): number {
  if (scope === PLATFORM) return -1;
  const { pk, sk } = keys.application(scope);
  const counting = writes.findIndex((write) => write.Update?.Key?.pk === pk && write.Update?.Key?.sk === sk);
  if (counting >= 0) return counting;
  return (
    writes.push({
      ConditionCheck: { TableName: table, Key: { pk, sk }, ConditionExpression: 'attribute_exists(pk)' },
    }) - 1
  );
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
