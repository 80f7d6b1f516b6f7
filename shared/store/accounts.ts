import { TransactWriteCommand } from '@aws-sdk/lib-dynamodb';
import type { User } from '../users/user.ts';
import type { Key } from './batch.ts';
import type { Db } from './db.ts';
import { failedConditions, type TransactItem } from './errors.ts';
import { keys } from './keys.ts';

/**
 * An item holds at most 400 KB and an image may be 716800 characters (SPEC §8): the image is stored
 * in parts beside the account item, three parts of 250 000 characters.
 */
export const IMAGE_PART_CHARS = 250_000;
export const IMAGE_PARTS = 3;

/** The keys of the image parts of an account, by name, to read with the account item. */
export const accountImageParts = (scope: string, email: string) => ({
  image0: keys.imagePart(scope, email, 0),
  image1: keys.imagePart(scope, email, 1),
  image2: keys.imagePart(scope, email, 2),
});

/** What a first sign-in creates (SPEC §1.7): the address's account, its user and an organization it owns. */
export interface NewAccount {
  scope: string;
  /** Without an image: a new user has none. */
  user: User;
  organization: { id: string; name: string; kind: 'platform' | 'tenant'; applicationId?: string };
}

// DESIGN §5: one account per normalised email per scope.
const noAccountYet = 'attribute_not_exists(pk)';
// A profile change never recreates the items of an account that is gone.
const accountExists = 'attribute_exists(pk)';

/** The writes creating `account`, for the sign-in transaction (the account Put is conditioned). */
export function newAccountWrites(table: string, account: NewAccount): TransactItem[] {
  const { user, scope, organization } = account;
  const { image: _none, ...fields } = user;
  const profile = { ...fields, imageParts: 0, scope };
  const createdAt = user.createdAt;
  return [
    {
      Put: {
        TableName: table,
        Item: { ...keys.account(scope, user.email), type: 'account', userId: user.id, ...profile },
        ConditionExpression: noAccountYet,
      },
    },
    { Put: { TableName: table, Item: { ...keys.user(user.id), type: 'user', ...profile } } },
    {
      Put: {
        TableName: table,
        Item: {
          ...keys.organization(organization.id),
          type: 'organization',
          ...organization,
          ownerId: user.id,
          createdAt,
        },
      },
    },
    {
      Put: {
        TableName: table,
        Item: { ...keys.member(organization.id, user.id), type: 'member', role: 'owner', createdAt },
      },
    },
  ];
}

/** Part writes storing `image` ('' removes it): every part is put or deleted, so none is left stale. */
function imageWrites(table: string, scope: string, email: string, image: string) {
  const parts = Math.ceil(image.length / IMAGE_PART_CHARS);
  const partKeys: Key[] = Object.values(accountImageParts(scope, email));
  const items: TransactItem[] = partKeys.map((key, index) =>
    index < parts
      ? {
          Put: {
            TableName: table,
            Item: {
              ...key,
              type: 'imagePart',
              data: image.slice(index * IMAGE_PART_CHARS, (index + 1) * IMAGE_PART_CHARS),
            },
          },
        }
      : { Delete: { TableName: table, Key: key } },
  );
  return { parts, items };
}

/** `missing`: the account (or its user) no longer exists. */
export type ProfileOutcome = { outcome: 'updated' } | { outcome: 'missing' };

/**
 * Changes the profile on the user item and its copy on the account item, with the image parts, in
 * ONE TransactWriteItems, so they never disagree.
 */
export async function updateProfile(
  db: Db,
  account: { userId: string; scope: string; email: string },
  change: { name?: string; image?: string },
): Promise<ProfileOutcome> {
  const set: string[] = [];
  const values: Record<string, unknown> = {};
  if (change.name !== undefined) {
    set.push('#name = :name');
    values[':name'] = change.name;
  }
  const image =
    change.image === undefined ? null : imageWrites(db.table, account.scope, account.email, change.image);
  if (image) {
    set.push('imageParts = :parts');
    values[':parts'] = image.parts;
  }
  const update = (key: Key): TransactItem => ({
    Update: {
      TableName: db.table,
      Key: key,
      UpdateExpression: `SET ${set.join(', ')}`,
      ConditionExpression: accountExists,
      ...(change.name !== undefined ? { ExpressionAttributeNames: { '#name': 'name' } } : {}),
      ExpressionAttributeValues: values,
    },
  });
  try {
    await db.client.send(
      new TransactWriteCommand({
        TransactItems: [
          update(keys.user(account.userId)),
          update(keys.account(account.scope, account.email)),
          ...(image?.items ?? []),
        ],
      }),
    );
    return { outcome: 'updated' };
  } catch (error) {
    if (failedConditions(error)) return { outcome: 'missing' };
    throw error;
  }
}
