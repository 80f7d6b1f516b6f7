/**
 * Pending OAuth authorization requests (`OAUTHREQ#<id>`): stored by `GET /oauth/authorize`, read by
 * the sign-in bridge, spent by the consent POST. Every read checks expiry itself (TTL is best-effort:
 * docs/data-model.md).
 */
import { DeleteCommand } from '@aws-sdk/lib-dynamodb';
import * as z from 'zod/mini';
import type { Db } from './db.ts';
import { decoder } from './decode.ts';
import { conditionFailureItem, isConditionFailure } from './errors.ts';
import { type CreateOutcome, putNew, readNow } from './items.ts';
import { keys } from './keys.ts';
import { AuthorizationBinding } from './oauth.ts';

const AuthorizationRequest = z.extend(AuthorizationBinding, {
  requestId: z.string(),
  /** The raw `scope` parameter, if sent. */
  scope: z.optional(z.string()),
  state: z.optional(z.string()),
  /** The query string of the original `/oauth/authorize` request, to return to after sign-in. */
  query: z.string(),
  sessionId: z.optional(z.string()),
  /**
   * With `sessionId`: the SHA-256 of the consent form's CSRF token (a synchronizer token, 256 random
   * bits, shown only in the consent page): the consent POST must carry it as well as come from the
   * bound session.
   */
  csrfTokenHash: z.optional(z.string()),
  /**
   * With `sessionId`: the scopes the consent page showed. Approval grants at most these (narrowed
   * again by the role at that moment), so a promotion between page and approval cannot widen it.
   */
  shownScopes: z.optional(z.array(z.string())),
  /** Epoch seconds (also the item's TTL). */
  expiresAt: z.number(),
});
/**
 * An authorization request that passed every check of `GET /oauth/authorize` up to the user's
 * decision, kept server-side (`OAUTHREQ#<id>`, 10 minutes) while the user signs in and consents.
 * `sessionId` binds it to the browser session that may decide it (the consent POST's CSRF guard).
 */
export type AuthorizationRequest = z.infer<typeof AuthorizationRequest>;
const recordOf = decoder('authorization request', AuthorizationRequest);

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
  const request = item && recordOf(item);
  if (!request || request.expiresAt <= now) return undefined;
  return request;
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
