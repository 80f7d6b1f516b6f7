import { DeleteCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import * as z from 'zod/mini';
import type { Db } from './db.ts';
import { decoder } from './decode.ts';
import { type DeviceGrant, deviceItem, expiresAtOf } from './device-grants.ts';
import { conditionFailureItem, isConditionFailure, type TransactItem } from './errors.ts';
import { keys } from './keys.ts';
import { type LogState, type RateLogWrite, storedState } from './rate-logs.ts';
import type { Read } from './reads.ts';
import { transactWrite } from './transact.ts';

const SignInRequest = z.object({
  requestId: z.string(),
  scope: z.string(),
  email: z.string(),
  codeHash: z.string(),
  attempts: z.number(),
  status: z.enum(['pending', 'approved']),
  /** Epoch ms after which the code is expired, whatever TTL has or has not deleted. */
  validUntil: z.number(),
  /** Display name for an account this request creates. */
  name: z.optional(z.string()),
  /** Plain code, kept only for addresses under the app's synthetic test domain (for peek). */
  peekCode: z.optional(z.string()),
});
/**
 * The pending sign-in request of one address in one scope (its states: docs/data-model.md, Items;
 * shared/sign-in/request.ts holds the rules that read it).
 */
export type SignInRequest = z.infer<typeof SignInRequest>;

/** The read of the pending sign-in request of an address in a scope, for a batch. */
export const signInRequestRead = (scope: string, email: string): Read<SignInRequest> => ({
  key: keys.signIn(scope, email),
  decode: decoder('sign-in request', SignInRequest),
});

// A request answers only while it is the same request (a new start replaces it; docs/security.md,
// "Sign-in codes") ...
const sameRequest = 'requestId = :requestId';
// ... and is not destroyed by the fifth wrong code ...
const notDestroyed = `${sameRequest} AND attempts < :max`;
// ... and is still in the state the transition starts from, and unexpired (TTL deletes late).
const stillInState = `${notDestroyed} AND #status = :status AND validUntil > :now`;

const requestKey = (request: SignInRequest) => keys.signIn(request.scope, request.email);

/**
 * The sign-in's spend of a request (shared/store/sign-in-transaction.ts): pending|approved ->
 * consumed, the Delete of the request while it is still the same, undestroyed, unexpired request in
 * `status`.
 */
export const requestSpend = (
  table: string,
  request: SignInRequest,
  rules: { status: SignInRequest['status']; now: number; maxAttempts: number },
): TransactItem => ({
  Delete: {
    TableName: table,
    Key: requestKey(request),
    ConditionExpression: stillInState,
    ExpressionAttributeNames: { '#status': 'status' },
    ExpressionAttributeValues: stateValues(request, rules.status, rules.now, rules.maxAttempts),
  },
});
/**
 * The values of `stillInState`; `maxAttempts` is the domain's cap (5 attempts: docs/security.md,
 * "Sign-in codes").
 */
const stateValues = (
  request: SignInRequest,
  status: SignInRequest['status'],
  now: number,
  maxAttempts: number,
) => ({
  ':requestId': request.requestId,
  ':max': maxAttempts,
  ':status': status,
  ':now': now,
});

/**
 * `raced`: a limit's log changed since it was read; `logs` holds, by name, each such log as it is
 * now. `conflict`: DynamoDB kept cancelling the transaction for concurrent writes to its items
 * (after shared/store/conflict-retry.ts gave up): nothing was written.
 */
export type OpenOutcome<Names extends string> =
  | { outcome: 'opened' }
  | { outcome: 'raced'; logs: { [Name in Names]?: { current: LogState } } }
  | { outcome: 'conflict' };

/**
 * ONE TransactWriteItems: the limits' hits, the request (replacing any earlier one of the address:
 * only the newest code works, docs/security.md, "Sign-in codes") and its device grant.
 */
export async function openRequest<Names extends string>(
  db: Db,
  opening: {
    request: SignInRequest;
    deviceCodeHash: string;
    device: DeviceGrant;
    hits: Record<Names, RateLogWrite>;
  },
): Promise<OpenOutcome<Names>> {
  const { request } = opening;
  const hits = Object.entries(opening.hits) as [Names, RateLogWrite][];
  const writes: TransactItem[] = [
    ...hits.map(([, write]) => ({ Update: write })),
    {
      Put: {
        TableName: db.table,
        Item: {
          ...requestKey(request),
          type: 'signIn',
          ...request,
          expiresAt: expiresAtOf(request.validUntil),
        },
      },
    },
    { Put: { TableName: db.table, Item: deviceItem(opening.deviceCodeHash, opening.device) } },
  ];
  const written = await transactWrite(db, writes);
  if (written.outcome !== 'failed') return { outcome: written.outcome === 'written' ? 'opened' : 'conflict' };
  const logs: { [Name in Names]?: { current: LogState } } = {};
  hits.forEach(([name], index) => {
    if (written.failed.includes(index)) logs[name] = { current: storedState(written.current[index]) };
  });
  return { outcome: 'raced', logs };
}

/** `replaced`: a newer start replaced the request already. */
export type WithdrawOutcome = { outcome: 'withdrawn' } | { outcome: 'replaced' };

/** Deletes the request if it is still `requestId` (a newer one is left alone). */
export async function withdrawRequest(db: Db, request: SignInRequest): Promise<WithdrawOutcome> {
  try {
    await db.client.send(
      new DeleteCommand({
        TableName: db.table,
        Key: requestKey(request),
        ConditionExpression: sameRequest,
        ExpressionAttributeValues: { ':requestId': request.requestId },
      }),
    );
    return { outcome: 'withdrawn' };
  } catch (error) {
    if (!isConditionFailure(error)) throw error;
    return { outcome: 'replaced' };
  }
}

/**
 * `counted`: `attempts` wrong codes so far; `destroyed`: it had reached MAX_ATTEMPTS already;
 * `replaced`: it is no longer this request (replaced or consumed meanwhile).
 */
export type AttemptOutcome =
  | { outcome: 'counted'; attempts: number }
  | { outcome: 'destroyed' }
  | { outcome: 'replaced' };

// 5 attempts (docs/security.md, "Sign-in codes"). Each wrong code is one ADD of 1 and of its `attemptId` to
// the set `attemptIds`, under `attempts < :max` and only if the set does not hold its id yet. So concurrent
// wrong codes are each counted by their first write and at most `max` are (never a lost count, no read, no
// retry), and a resend of a write that had landed fails its condition and finds its id: each wrong code
// counts exactly once. (`attempts = :read` cannot do this: a resend's +1 and a concurrent guess's +1 look the
// same, so it would either count a resend twice or miss a guess.)
const notCountedYet = `${notDestroyed} AND NOT contains(attemptIds, :attemptId)`;

/**
 * Counts a wrong code once (see `notCountedYet`). `attemptId` (random.ts `newWriteId`) names this
 * wrong code. A resent count that had landed answers the count stored now (which may include
 * concurrent wrong codes counted after it).
 */
export async function countWrongAttempt(
  db: Db,
  request: SignInRequest,
  attempt: { maxAttempts: number; attemptId: string },
): Promise<AttemptOutcome> {
  const { maxAttempts, attemptId } = attempt;
  try {
    const { Attributes } = await db.client.send(
      new UpdateCommand({
        TableName: db.table,
        Key: requestKey(request),
        UpdateExpression: 'ADD attempts :one, attemptIds :attemptIds',
        ConditionExpression: notCountedYet,
        ExpressionAttributeValues: {
          ':one': 1,
          ':attemptIds': new Set([attemptId]),
          ':attemptId': attemptId,
          ':requestId': request.requestId,
          ':max': maxAttempts,
        },
        ReturnValues: 'UPDATED_NEW',
        ReturnValuesOnConditionCheckFailure: 'ALL_OLD',
      }),
    );
    return { outcome: 'counted', attempts: Number(Attributes?.attempts ?? maxAttempts) };
  } catch (error) {
    if (!isConditionFailure(error)) throw error;
    const current = conditionFailureItem(error);
    if (current?.requestId !== request.requestId) return { outcome: 'replaced' };
    if ((current.attemptIds as Set<string> | undefined)?.has(attemptId)) {
      return { outcome: 'counted', attempts: Number(current.attempts) };
    }
    return { outcome: 'destroyed' };
  }
}

/** `raced`: the request left `pending` (or was replaced, destroyed, or expired) since it was read. */
export type ApproveOutcome = { outcome: 'approved' } | { outcome: 'raced' };

/**
 * pending -> approved (docs/data-model.md, Items). `approvalId` (random.ts `newWriteId`) is stored with the
 * approval: a resend of this write that had landed finds it and answers approved, whereas a
 * concurrent approval with the same code finds another id and stays refused (a code works once).
 */
export async function approveRequest(
  db: Db,
  request: SignInRequest,
  rules: { now: number; maxAttempts: number; approvalId: string },
): Promise<ApproveOutcome> {
  try {
    await db.client.send(
      new UpdateCommand({
        TableName: db.table,
        Key: requestKey(request),
        UpdateExpression: 'SET #status = :approved, approvalId = :approvalId',
        ConditionExpression: stillInState,
        ExpressionAttributeNames: { '#status': 'status' },
        ExpressionAttributeValues: {
          ':approved': 'approved',
          ':approvalId': rules.approvalId,
          ...stateValues(request, 'pending', rules.now, rules.maxAttempts),
        },
        ReturnValuesOnConditionCheckFailure: 'ALL_OLD',
      }),
    );
    return { outcome: 'approved' };
  } catch (error) {
    if (!isConditionFailure(error)) throw error;
    const current = conditionFailureItem(error);
    const ours =
      current?.requestId === request.requestId &&
      current.status === 'approved' &&
      current.approvalId === rules.approvalId;
    return ours ? { outcome: 'approved' } : { outcome: 'raced' };
  }
}
