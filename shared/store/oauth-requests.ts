/**
 * Pending OAuth authorization requests (`OAUTHREQ#<id>`, shared/oauth/model.ts): stored by
 * `GET /oauth/authorize`, read by the sign-in bridge, spent by the consent POST. Every read checks
 * expiry itself (TTL is best-effort: docs/data-model.md).
 */
import { DeleteCommand } from '@aws-sdk/lib-dynamodb';
import type { AuthorizationRequest } from '../oauth/model.ts';
import type { Db } from './db.ts';
import { conditionFailureItem, isConditionFailure } from './errors.ts';
import { type CreateOutcome, putNew, readNow, withoutKeys } from './items.ts';
import { keys } from './keys.ts';

const recordOf = (item: Record<string, unknown>): AuthorizationRequest =>
  withoutKeys(item) as unknown as AuthorizationRequest;

/** A new pending request; its id has 128 random bits, so `exists` never happens in practice. */
export const putAuthorizationRequest = (db: Db, request: AuthorizationRequest): Promise<CreateOutcome> =>
  putNew(db, { ...keys.oauthRequest(request.requestId), ...request });

/** The request if it exists and has not expired (`now` in epoch seconds). One consistent GetItem. */
export async function readAuthorizationRequest(
  db: Db,
  requestId: string,
  now: number,
): Promise<AuthorizationRequest | undefined> {
  const item = await readNow(db, keys.oauthRequest(requestId));
  if (!item || (item.expiresAt as number) <= now) return undefined;
  return recordOf(item);
}

/**
 * `spent`: the request was deleted by this call, so it is decided once (single use); `missing`: no
 * such request (unknown, or already spent); `refused`: it exists but is bound to another session,
 * holds another CSRF token or has expired: nothing changed, `current` says which.
 */
export type SpendOutcome =
  | { outcome: 'spent'; request: AuthorizationRequest }
  | { outcome: 'missing' }
  | { outcome: 'refused'; current: AuthorizationRequest };

/** One conditional DeleteItem: only the bound session, with the page's CSRF token, before expiry. */
export async function spendAuthorizationRequest(
  db: Db,
  requestId: string,
  binding: { sessionId: string; csrfTokenHash: string; now: number },
): Promise<SpendOutcome> {
  try {
    const { Attributes } = await db.client.send(
      new DeleteCommand({
        TableName: db.table,
        Key: keys.oauthRequest(requestId),
        ConditionExpression:
          'attribute_exists(pk) AND sessionId = :sessionId AND csrfTokenHash = :csrf AND expiresAt > :now',
        ExpressionAttributeValues: {
          ':sessionId': binding.sessionId,
          ':csrf': binding.csrfTokenHash,
          ':now': binding.now,
        },
        ReturnValues: 'ALL_OLD',
        ReturnValuesOnConditionCheckFailure: 'ALL_OLD',
      }),
    );
    return Attributes ? { outcome: 'spent', request: recordOf(Attributes) } : { outcome: 'missing' };
  } catch (error) {
    if (!isConditionFailure(error)) throw error;
    const current = conditionFailureItem(error);
    return current ? { outcome: 'refused', current: recordOf(current) } : { outcome: 'missing' };
  }
}
