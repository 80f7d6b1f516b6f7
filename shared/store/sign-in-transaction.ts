import type { SessionRecord } from '../sessions/session.ts';
import type { SignInRequest } from '../sign-in/request.ts';
import { type NewAccount, newAccountWrites } from './accounts.ts';
import type { Db } from './db.ts';
import type { TransactItem } from './errors.ts';
import { keys } from './keys.ts';
import { sessionItem } from './sessions.ts';
import { requestKey, stateValues, stillInState } from './sign-in-requests.ts';
import { type SignInCount, signInCountWrites } from './statistics.ts';
import { transactWrite } from './transact.ts';

/** What consuming a request writes besides deleting it. */
export interface Consumption {
  request: SignInRequest;
  /** The state the request must still be in: `pending` for verify, `approved` for poll. */
  expectStatus: SignInRequest['status'];
  now: number;
  /** The domain's cap on wrong codes (SPEC §8): a destroyed request is never consumed. */
  maxAttempts: number;
  session: SessionRecord;
  /** A first sign-in: the account it creates. */
  newAccount?: NewAccount;
  /** Poll: the device grant that is used up with the request. */
  deviceCodeHash?: string;
  /** A sign-in of an application: the statistics counters it adds to, in the same transaction. */
  counts?: SignInCount;
  /** A later sign-in: the user whose `lastSignInAt` is set, and who must not be disabled meanwhile (issue 8). */
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
 * pending|approved -> consumed in ONE TransactWriteItems: the request is deleted only if it is still
 * the same, undestroyed, unexpired request in the expected state, so of any number of concurrent
 * attempts exactly one writes its session (and, on a first sign-in, the account).
 */
export async function consumeRequest(db: Db, consumption: Consumption): Promise<ConsumeOutcome> {
  const { request } = consumption;
  const writes: TransactItem[] = [
    {
      Delete: {
        TableName: db.table,
        Key: requestKey(request),
        ConditionExpression: stillInState,
        ExpressionAttributeNames: { '#status': 'status' },
        ExpressionAttributeValues: stateValues(
          request,
          consumption.expectStatus,
          consumption.now,
          consumption.maxAttempts,
        ),
      },
    },
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
  const written = await transactWrite(db, writes);
  if (written.outcome === 'written') return { outcome: 'consumed' };
  if (written.outcome === 'conflict') return written;
  if (written.failed.includes(signedIn) && !written.failed.includes(0)) {
    // Disabled since the sign-in read it (or deleted: then the account changed).
    return written.current[signedIn] ? { outcome: 'disabled' } : { outcome: 'accountExists' };
  }
  // Only the request's Delete and the account's Put carry conditions.
  return written.failed.includes(0) ? { outcome: 'raced' } : { outcome: 'accountExists' };
}

/** Issue 8: the user's last sign-in, written only while the user exists and is not disabled. */
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
