import * as z from 'zod/mini';
import { auditWrites, type StoredAuditEntry } from './audit.ts';
import type { Key } from './batch.ts';
import type { Db } from './db.ts';
import { decoder } from './decode.ts';
import type { TransactItem } from './errors.ts';
import { imageDeletes, imageWrites, type StoredImage } from './images.ts';
import { readNow } from './items.ts';
import { keys } from './keys.ts';
import { organizationWrites } from './organizations.ts';
import type { Read } from './reads.ts';
import { transactWrite } from './transact.ts';
import { applicationUserIndexes, nameIndex, profileFields } from './users.ts';

const AccountRecord = z.object({ ...profileFields, userId: z.string() });
/**
 * An account item (`ACCOUNT#<scope>#<email>` / `ACCOUNT`): unique per normalised address and scope,
 * with a copy of its user's profile, so sign-in and the session lookup read one item.
 */
export type AccountRecord = z.infer<typeof AccountRecord>;
const accountRecord = decoder('account', AccountRecord);

/** The read of the account of a normalised address in a scope, for a batch. */
export const accountRead = (scope: string, email: string): Read<AccountRecord> => ({
  key: keys.account(scope, email),
  decode: accountRecord,
});

/**
 * A user's public fields, as the API answers them (shared/identity/user.ts names it `User`) and as a
 * first sign-in stores them (no stored image yet: `image` is a URL the user gave, or null).
 */
export interface UserFields {
  id: string;
  email: string;
  name: string | null;
  image: string | null;
  emailVerified: boolean;
  createdAt: string;
}

/**
 * What a first sign-in creates (docs/api.md, "Management API"): the address's account, its user and an
 * organization it owns.
 */
export interface NewAccount {
  scope: string;
  /** Without an image: a new user has none. */
  user: UserFields;
  organization: { id: string; name: string; kind: 'platform' | 'tenant'; applicationId?: string };
}

// One account per normalised email per scope (docs/data-model.md, Items).
const noAccountYet = 'attribute_not_exists(pk)';
// A profile change never recreates the items of an account that is gone.
const accountExists = 'attribute_exists(pk)';

/** The writes creating `account`, for the sign-in transaction (the account Put is conditioned). */
export function newAccountWrites(table: string, account: NewAccount): TransactItem[] {
  const { user, scope, organization } = account;
  const { image: _none, ...fields } = user;
  const profile = { ...fields, scope };
  const createdAt = user.createdAt;
  return [
    {
      Put: {
        TableName: table,
        Item: { ...keys.account(scope, user.email), type: 'account', userId: user.id, ...profile },
        ConditionExpression: noAccountYet,
      },
    },
    {
      Put: {
        TableName: table,
        Item: {
          ...keys.user(user.id),
          ...applicationUserIndexes(scope, user),
          type: 'user',
          ...profile,
          lastSignInAt: createdAt,
        },
      },
    },
    ...organizationWrites(
      table,
      { ...organization, createdAt },
      { userId: user.id, email: user.email, role: 'owner', createdAt },
    ),
  ];
}

/**
 * `missing`: the account (or its user) no longer exists; `raced`: another change replaced the
 * stored image since it was read (`imageId` is the one the profile names now); `conflict`: real
 * DynamoDB kept cancelling it for concurrent writes (shared/store/transact.ts), nothing written.
 */
export type ProfileOutcome =
  | { outcome: 'updated' }
  | { outcome: 'missing' }
  | { outcome: 'raced'; imageId: string | null }
  | { outcome: 'conflict' };

/**
 * What a profile change does to its image: removes it, links a URL the user gives (kept as given,
 * never fetched), or stores an uploaded one (shared/identity/image.ts makes it).
 */
export type ImageChange =
  | { kind: 'removed' }
  | { kind: 'linked'; url: string }
  | { kind: 'uploaded'; image: StoredImage };

export interface ProfileUpdate {
  name?: string;
  /** The image change, and the id of the stored image the profile named when read (null: none). */
  image?: { change: ImageChange; storedId: string | null };
}

// The stored image deleted is the one the profile still names: two concurrent changes cannot both
// replace the same image, which would leave the first one's upload stored and named by nobody.
const namesNoImage = 'attribute_not_exists(imageId)';
const namesImage = 'imageId = :storedId';

/**
 * How each image change is kept on the profile items: `image` holds a URL the user gave, `imageId`
 * the id of a stored image (its bytes live in their own items, shared/store/images.ts). The profile
 * items stay small, so reading a profile never reads an image.
 */
const imageUpdate = (change: ImageChange) => {
  switch (change.kind) {
    case 'removed':
      return { set: [], remove: ['image', 'imageId'], values: {} };
    case 'linked':
      return { set: ['image = :image'], remove: ['imageId'], values: { ':image': change.url } };
    case 'uploaded':
      return { set: ['imageId = :imageId'], remove: ['image'], values: { ':imageId': change.image.id } };
  }
};

/**
 * The writes of the stored images: the new one's head and parts, and the Deletes of the one the profile named
 * (a removed photo is gone: docs/data-model.md, Items). None when the id stays (the same bytes again).
 */
function storedImageWrites(table: string, image: ProfileUpdate['image']): TransactItem[] {
  if (!image) return [];
  const uploaded = image.change.kind === 'uploaded' ? image.change.image : null;
  if (image.storedId === (uploaded?.id ?? null)) return [];
  return [
    ...(uploaded ? imageWrites(table, uploaded) : []),
    ...(image.storedId ? imageDeletes(table, image.storedId) : []),
  ];
}

/**
 * Changes the profile on the user item and its copy on the account item, with the stored images it
 * adds and deletes, in ONE TransactWriteItems (at most 2 Updates, 3 Puts and 3 Deletes, about 500 KB:
 * well within 100 items and 4 MB), so they never disagree and no stored image is left unnamed.
 */
export async function updateProfile(
  db: Db,
  account: { userId: string; scope: string; email: string },
  change: ProfileUpdate,
  audit?: StoredAuditEntry,
): Promise<ProfileOutcome> {
  const image = change.image ? imageUpdate(change.image.change) : { set: [], remove: [], values: {} };
  const set = [...(change.name !== undefined ? ['#name = :name'] : []), ...image.set];
  const expression = [
    ...(set.length > 0 ? [`SET ${set.join(', ')}`] : []),
    ...(image.remove.length > 0 ? [`REMOVE ${image.remove.join(', ')}`] : []),
  ].join(' ');
  const storedId = change.image?.storedId ?? null;
  const condition = change.image
    ? `${accountExists} AND ${storedId ? namesImage : namesNoImage}`
    : accountExists;
  const values = {
    ...(change.name !== undefined ? { ':name': change.name } : {}),
    ...image.values,
    ...(change.image && storedId ? { ':storedId': storedId } : {}),
  };
  const update = (key: Key, index: Record<string, string> | null = null): TransactItem => {
    // An application user's name index follows its name (search by name prefix; docs/data-model.md,
    // "Users and tenant organizations").
    const indexSet = index ? Object.keys(index).map((name) => `${name} = :${name}`) : [];
    const indexValues = index ? Object.fromEntries(Object.entries(index).map(([n, v]) => [`:${n}`, v])) : {};
    const allValues = { ...values, ...indexValues };
    return {
      Update: {
        TableName: db.table,
        Key: key,
        UpdateExpression: index ? withSet(expression, indexSet) : expression,
        ConditionExpression: condition,
        ...(change.name !== undefined ? { ExpressionAttributeNames: { '#name': 'name' } } : {}),
        ...(Object.keys(allValues).length > 0 ? { ExpressionAttributeValues: allValues } : {}),
        ReturnValuesOnConditionCheckFailure: 'ALL_OLD',
      },
    };
  };
  const written = await transactWrite(db, [
    update(
      keys.user(account.userId),
      change.name === undefined ? null : nameIndex(account.scope, account.userId, change.name),
    ),
    update(keys.account(account.scope, account.email)),
    ...storedImageWrites(db.table, change.image),
    ...(audit ? auditWrites(db.table, audit) : []),
  ]);
  if (written.outcome === 'written') return { outcome: 'updated' };
  if (written.outcome === 'conflict') return written;
  const found = written.failed.map((index) => written.current[index]);
  if (found.some((item) => item === undefined)) return { outcome: 'missing' };
  const named = found[0]?.imageId;
  return { outcome: 'raced', imageId: typeof named === 'string' ? named : null };
}

/** `expression` with `assignments` added to its SET clause (or a SET clause added). */
const withSet = (expression: string, assignments: string[]): string =>
  expression.startsWith('SET ')
    ? `SET ${assignments.join(', ')}, ${expression.slice(4)}`
    : `SET ${assignments.join(', ')}${expression ? ` ${expression}` : ''}`;

/** The account of a normalised address in a scope, strongly consistent: one GetItem. */
export async function readAccount(db: Db, scope: string, email: string): Promise<AccountRecord | undefined> {
  const item = await readNow(db, keys.account(scope, email));
  return item && accountRecord(item);
}
