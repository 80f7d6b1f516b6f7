/**
 * Pending OAuth authorization requests (`OAUTHREQ#<id>`): stored by `GET /oauth/authorize`, read by
 * the sign-in bridge, spent by the consent POST. Every read checks expiry itself (TTL is best-effort:
 * docs/data-model.md).
 */
import * as z from 'zod/mini';
import type { Db } from './db.ts';
import { decoder } from './decode.ts';
import { type CreateOutcome, isTaken, putNew, readNow, takeOnce } from './items.ts';
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
  const request = item && !isTaken(item) ? recordOf(item) : undefined;
  if (!request || request.expiresAt <= now) return undefined;
  return request;
}

/**
 * `spent`: the request was taken by this call, so it is decided once (single use); `missing`: no
 * such request (unknown, or already spent); `refused`: it exists but is bound to another session,
 * holds another CSRF token or has expired: nothing changed, `current` says which.
 */
export type SpendOutcome =
  | { outcome: 'spent'; request: AuthorizationRequest }
  | { outcome: 'missing' }
  | { outcome: 'refused'; current: AuthorizationRequest };

/**
 * ONE conditional UpdateItem (items.ts `takeOnce`): only the bound session, with the page's CSRF
 * token, before expiry; `writeId` (random.ts `newWriteId`) lets an SDK resend whose first answer was
 * lost find its own spend.
 */
export async function spendAuthorizationRequest(
  db: Db,
  requestId: string,
  binding: { sessionId: string; csrfTokenHash: string; now: number; writeId: string },
): Promise<SpendOutcome> {
  const taken = await takeOnce(db, keys.oauthRequest(requestId), {
    writeId: binding.writeId,
    condition: 'sessionId = :sessionId AND csrfTokenHash = :csrf AND expiresAt > :now',
    values: { ':sessionId': binding.sessionId, ':csrf': binding.csrfTokenHash, ':now': binding.now },
  });
  if (taken.outcome === 'taken') return { outcome: 'spent', request: recordOf(taken.item) };
  if (taken.outcome === 'refused') return { outcome: 'refused', current: recordOf(taken.current) };
  return taken;
}
