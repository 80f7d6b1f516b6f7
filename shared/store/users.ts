/**
 * An application's end users (docs/data-model.md, "Users and tenant organizations"): their profile items
 * carry index attributes, written at first sign-in and kept current with the name, so listing and searching
 * never scan the table; the statistics aggregator counts them and the application's tenant
 * organizations (docs/data-model.md, Statistics).
 */
import * as z from 'zod/mini';
import { auditWrites, type StoredAuditEntry } from './audit.ts';
import type { Db } from './db.ts';
import { decoder } from './decode.ts';
import type { TransactItem } from './errors.ts';
import { imageDeletes } from './images.ts';
import { queryUpTo, readNow } from './items.ts';
import { keys, PLATFORM } from './keys.ts';
import { type Read, readMany } from './reads.ts';
import { transactWrite } from './transact.ts';

/**
 * The fields of a user's profile, as its user item holds them and the account (email) item that
 * sign-in reads keeps a copy: `image` a URL the user gave, `imageId` the id of a stored image
 * (shared/store/images.ts), never both.
 */
export const profileFields = {
  id: z.string(),
  email: z.string(),
  name: z.optional(z.nullable(z.string())),
  image: z.optional(z.nullable(z.string())),
  imageId: z.optional(z.string()),
  emailVerified: z.optional(z.boolean()),
  createdAt: z.string(),
  /** `platform` or the id of the application the user belongs to. */
  scope: z.optional(z.string()),
  disabledAt: z.optional(z.string()),
  lastSignInAt: z.optional(z.string()),
};

const ProfileRecord = z.object(profileFields);
/** A user item (`USER#<id>` / `PROFILE`) as the repositories return it. */
export type ProfileRecord = z.infer<typeof ProfileRecord>;
const profileRecord = decoder('user', ProfileRecord);

/** The read of a user's profile item, for a batch (shared/store/batch.ts `readRecords`). */
export const profileRead = (userId: string): Read<ProfileRecord> => ({
  key: keys.user(userId),
  decode: profileRecord,
});

/** The profiles of `userIds` that exist, 100 to a BatchGetItem (strongly consistent). */
export const readProfiles = (db: Db, userIds: readonly string[]): Promise<ProfileRecord[]> =>
  readMany(db, userIds.map(profileRead));

/**
 * A search key holds at most this many UTF-8 bytes: NFKC can make a 120-character name some 4 KB
 * (U+FDFA alone becomes 18 characters), and an index sort key holds at most 1024 bytes. Prefix
 * search over the first 200 bytes loses nothing a person types.
 */
const SEARCH_KEY_BYTES = 200;

/** What index keys and the queries that search them compare: NFKC, lower-cased, cut to SEARCH_KEY_BYTES. */
function searchText(text: string): string {
  const normal = text.normalize('NFKC').toLowerCase();
  let bytes = 0;
  let cut = '';
  // By code point, so a cut never splits a character.
  for (const character of normal) {
    bytes += Buffer.byteLength(character);
    if (bytes > SEARCH_KEY_BYTES) break;
    cut += character;
  }
  return cut;
}

/** The index attributes of an application user's profile item (a platform user has none). */
export function applicationUserIndexes(
  scope: string,
  user: { id: string; email: string; name: string | null },
) {
  if (scope === PLATFORM) return {};
  return {
    ...keys.applicationUser(scope, user.email),
    ...(user.name ? keys.applicationUserName(scope, searchText(user.name), user.id) : {}),
  };
}

/** The name index of an application user after a name change (none on the platform). */
export const nameIndex = (scope: string, userId: string, name: string) =>
  scope === PLATFORM ? null : keys.applicationUserName(scope, searchText(name), userId);

/**
 * A write that needs the application to exist, for a transaction. Its counters are not written:
 * the statistics aggregator counts users and tenant organizations from the table's stream
 * (docs/data-model.md, Statistics).
 */
export const applicationExists = (table: string, applicationId: string): TransactItem => ({
  ConditionCheck: {
    TableName: table,
    Key: keys.application(applicationId),
    ConditionExpression: 'attribute_exists(pk)',
  },
});

/** A user's profile item, strongly consistent: one GetItem. */
export async function readUser(db: Db, userId: string): Promise<ProfileRecord | undefined> {
  const item = await readNow(db, keys.user(userId));
  return item && profileRecord(item);
}

const byApplication = (applicationId: string) => ({ ':app': `APPUSERS#${applicationId}` });

/** One page of an application's users by address (gsi1, eventually consistent). */
export async function usersOf(
  db: Db,
  applicationId: string,
  page: { limit: number; offset: number },
): Promise<ProfileRecord[]> {
  const items = await queryUpTo(
    db,
    {
      IndexName: 'gsi1',
      KeyConditionExpression: 'gsi1pk = :app AND begins_with(gsi1sk, :email)',
      ExpressionAttributeValues: {
        ...byApplication(applicationId),
        ':email': keys.applicationUserEmailPrefix,
      },
    },
    page.offset + page.limit,
  );
  return items.slice(page.offset).map(profileRecord);
}

/**
 * The users whose address (gsi1) or name (gsi2) starts with `prefix`, at most `cap` of each: two
 * Queries (more only past 1 MB of matches). `capped`: one of them had more.
 */
export async function searchUsers(
  db: Db,
  applicationId: string,
  prefix: string,
  cap: number,
): Promise<{ byEmail: ProfileRecord[]; byName: ProfileRecord[]; capped: boolean }> {
  const text = searchText(prefix);
  const [byEmail, byName] = await Promise.all(
    (['gsi1', 'gsi2'] as const).map((index) =>
      queryUpTo(
        db,
        {
          IndexName: index,
          KeyConditionExpression: `${index}pk = :app AND begins_with(${index}sk, :prefix)`,
          ExpressionAttributeValues: {
            ...byApplication(applicationId),
            ':prefix': `${index === 'gsi1' ? keys.applicationUserEmailPrefix : keys.applicationUserNamePrefix}${text}`,
          },
        },
        cap + 1,
      ),
    ),
  );
  const capped = (byEmail?.length ?? 0) > cap || (byName?.length ?? 0) > cap;
  return {
    byEmail: (byEmail ?? []).slice(0, cap).map(profileRecord),
    byName: (byName ?? []).slice(0, cap).map(profileRecord),
    capped,
  };
}

/** Whose items a change names: the profile item and the account (email) item sign-in reads. */
export interface AccountRef {
  userId: string;
  scope: string;
  email: string;
}

export type UserWriteOutcome = 'written' | 'missing' | 'conflict';

/**
 * Sets `disabledAt` (keeping an earlier one) or removes it on both items in ONE TransactWriteItems:
 * the session lookup reads the account item, sign-in completion the user item.
 */
export async function setDisabled(
  db: Db,
  account: AccountRef,
  at: string | null,
  audit?: StoredAuditEntry,
): Promise<UserWriteOutcome | 'unchanged'> {
  // With an entry, the user item must change state (a concurrent disable or enable already did it:
  // `unchanged`, nothing written), so one change records one entry.
  const changes = audit
    ? at
      ? ' AND attribute_not_exists(disabledAt)'
      : ' AND attribute_exists(disabledAt)'
    : '';
  const update = (key: { pk: string; sk: string }, condition = ''): TransactItem => ({
    Update: {
      TableName: db.table,
      Key: key,
      UpdateExpression: at ? 'SET disabledAt = if_not_exists(disabledAt, :at)' : 'REMOVE disabledAt',
      ConditionExpression: `attribute_exists(pk)${condition}`,
      ...(at ? { ExpressionAttributeValues: { ':at': at } } : {}),
      ReturnValuesOnConditionCheckFailure: 'ALL_OLD',
    },
  });
  const written = await transactWrite(db, [
    update(keys.user(account.userId), changes),
    update(keys.account(account.scope, account.email)),
    ...(audit ? auditWrites(db.table, audit) : []),
  ]);
  if (written.outcome !== 'failed') return written.outcome;
  return written.failed.includes(0) && written.current[0] ? 'unchanged' : 'missing';
}

/**
 * Deletes the account and user items, uncounts the user on its application and deletes its stored
 * image, in ONE TransactWriteItems: every session lookup needs the account item, so its tokens stop
 * at once; its sessions and memberships are deleted after (shared/users/delete-user.ts).
 */
export async function deleteUser(
  db: Db,
  account: AccountRef & { imageId: string | null },
  audit: StoredAuditEntry,
): Promise<UserWriteOutcome> {
  const exists = 'attribute_exists(pk)';
  const written = await transactWrite(db, [
    { Delete: { TableName: db.table, Key: keys.user(account.userId), ConditionExpression: exists } },
    {
      Delete: {
        TableName: db.table,
        Key: keys.account(account.scope, account.email),
        ConditionExpression: exists,
      },
    },
    applicationExists(db.table, account.scope),
    ...(account.imageId ? imageDeletes(db.table, account.imageId) : []),
    ...auditWrites(db.table, audit),
  ]);
  return written.outcome === 'failed' ? 'missing' : written.outcome;
}
