/**
 * Social sign-in: the two short-lived items between the browser's trips (docs/data-model.md, Items). Both are
 * kept by the hash of a 256-bit random value the browser or the application holds, never the value itself,
 * and TTL removes them a minute after they expire (reads check `validUntil` themselves).
 * - The state (start to callback, 10 minutes): the application and provider it was started for,
 *   the PKCE verifier, the OpenID Connect nonce, and where the browser returns. Taken by the
 *   callback in one UpdateItem (items.ts `takeOnce`), so a state works once whatever the callback
 *   does next.
 * - The exchange code (callback to `POST /auth/social/exchange`, 2 minutes): the account the
 *   provider proved. Used up by the sign-in transaction (shared/store/sign-in-transaction.ts).
 */
import { PutCommand } from '@aws-sdk/lib-dynamodb';
import * as z from 'zod/mini';
import type { NewAccount } from './accounts.ts';
import { newAccountWrites } from './accounts.ts';
import type { Item } from './batch.ts';
import type { Db } from './db.ts';
import { decoder } from './decode.ts';
import { expiresAtOf } from './device-grants.ts';
import type { TransactItem } from './errors.ts';
import { readNow, takeOnce } from './items.ts';
import { keys } from './keys.ts';
import { transactWrite } from './transact.ts';
import { applicationExists } from './users.ts';

const SocialState = z.object({
  applicationId: z.string(),
  provider: z.string(),
  /** RFC 7636: the PKCE code verifier, sent with the code to the provider. */
  codeVerifier: z.string(),
  /** OpenID Connect: the nonce the ID token must carry (none for GitHub). */
  nonce: z.optional(z.string()),
  /** The hash of the starting browser's binding (shared/social/browser-binding.ts). */
  browserHash: z.string(),
  /** The generic OpenID Connect issuer the sign-in started at (the callback's must be the same). */
  issuer: z.optional(z.string()),
  /** The registered return URL the browser goes back to. */
  returnTo: z.string(),
  /** The application's own `state`, handed back unchanged on the return URL. */
  appState: z.optional(z.string()),
  /** The S256 challenge of the application page's verifier, which the exchange must answer. */
  appChallenge: z.string(),
  /** Epoch ms after which the state is unusable. */
  validUntil: z.number(),
});
export type SocialState = z.infer<typeof SocialState>;
const socialState = decoder('social sign-in state', SocialState);

const SocialCode = z.object({
  applicationId: z.string(),
  userId: z.string(),
  email: z.string(),
  /** The state's `appChallenge`: the exchange shows its verifier. */
  appChallenge: z.string(),
  validUntil: z.number(),
});
export type SocialCode = z.infer<typeof SocialCode>;
const socialCode = decoder('social exchange code', SocialCode);

export async function putSocialState(db: Db, stateHash: string, state: SocialState): Promise<void> {
  await db.client.send(
    new PutCommand({
      TableName: db.table,
      Item: {
        ...keys.socialState(stateHash),
        type: 'socialState',
        ...state,
        expiresAt: expiresAtOf(state.validUntil),
      },
    }),
  );
}

/**
 * Takes the state: ONE UpdateItem (items.ts `takeOnce`), so of two callbacks only one gets it, and an
 * SDK resend whose first answer was lost gets it again (`writeId`, random.ts `newWriteId`).
 */
export async function takeSocialState(
  db: Db,
  stateHash: string,
  writeId: string,
): Promise<SocialState | undefined> {
  const taken = await takeOnce(db, keys.socialState(stateHash), { writeId });
  return taken.outcome === 'taken' ? socialState(taken.item) : undefined;
}

const socialCodeItem = (codeHash: string, code: SocialCode): Item => ({
  ...keys.socialCode(codeHash),
  type: 'socialCode',
  ...code,
  expiresAt: expiresAtOf(code.validUntil),
});

export async function putSocialCode(db: Db, codeHash: string, code: SocialCode): Promise<void> {
  await db.client.send(new PutCommand({ TableName: db.table, Item: socialCodeItem(codeHash, code) }));
}

export type NewSocialAccountOutcome =
  | { outcome: 'created' }
  | { outcome: 'exists' }
  | { outcome: 'gone' }
  | { outcome: 'conflict' };

/**
 * A first social sign-in: the account (unique per address per scope by its conditional
 * Put, so of concurrent first callbacks exactly one creates it), its user and tenant organization,
 * and the exchange code, in ONE TransactWriteItems, while the application exists. `exists`: another
 * sign-in created the account first; `gone`: the application was deleted (nothing written either
 * way). The statistics count the new user from the table's stream.
 */
export async function createSocialAccount(
  db: Db,
  account: NewAccount,
  code: { hash: string; code: SocialCode },
): Promise<NewSocialAccountOutcome> {
  const writes: TransactItem[] = [
    ...newAccountWrites(db.table, account),
    { Put: { TableName: db.table, Item: socialCodeItem(code.hash, code.code) } },
    // The provider's answers take seconds: the application may have been deleted since it was read.
    // Rare enough (a first social sign-in) that checking its item contends with nothing.
    applicationExists(db.table, account.scope),
  ];
  const written = await transactWrite(db, writes);
  if (written.outcome === 'written') return { outcome: 'created' };
  if (written.outcome === 'conflict') return written;
  // The account's Put is the first write; the application's check the last.
  return written.failed.includes(0) ? { outcome: 'exists' } : { outcome: 'gone' };
}

export async function readSocialCode(db: Db, codeHash: string): Promise<SocialCode | undefined> {
  const item = await readNow(db, keys.socialCode(codeHash));
  return item && socialCode(item);
}

/** The exchange's spend of a code: its Delete while it is unexpired and still the application's. */
export const socialCodeSpend = (
  table: string,
  codeHash: string,
  rules: { applicationId: string; now: number },
): TransactItem => ({
  Delete: {
    TableName: table,
    Key: keys.socialCode(codeHash),
    ConditionExpression: 'attribute_exists(pk) AND applicationId = :app AND validUntil > :now',
    ExpressionAttributeValues: { ':app': rules.applicationId, ':now': rules.now },
  },
});
