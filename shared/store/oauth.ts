/**
 * OAuth items (issue 10; keys in keys.ts, shapes in shared/oauth/model.ts): authorization codes by
 * hash, grants in their user's partition. Every read checks expiry itself (TTL is best-effort).
 */
import type { AuthorizationCodeRecord, GrantRecord } from '../oauth/model.ts';
import type { Db } from './db.ts';
import { type CreateOutcome, putNew, readNow } from './items.ts';
import { keys } from './keys.ts';

/** A new authorization code; its hash is 256 bits of a random code, so `exists` never happens in practice. */
export const putAuthorizationCode = (db: Db, record: AuthorizationCodeRecord): Promise<CreateOutcome> =>
  putNew(db, { ...keys.authorizationCode(record.codeHash), ...record });

/** A new grant (a connection), in its user's partition. */
export const putGrant = (db: Db, grant: GrantRecord): Promise<CreateOutcome> =>
  putNew(db, { ...keys.grant(grant.userId, grant.grantId), ...grant });

/** The grant as last written (strongly consistent: a revocation holds on the very next call), or undefined. */
export async function readGrant(db: Db, userId: string, grantId: string): Promise<GrantRecord | undefined> {
  const item = await readNow(db, keys.grant(userId, grantId));
  if (!item) return undefined;
  const { pk: _pk, sk: _sk, ...grant } = item;
  return grant as unknown as GrantRecord;
}
