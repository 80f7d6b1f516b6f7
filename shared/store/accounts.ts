import { TransactWriteCommand } from '@aws-sdk/lib-dynamodb';
import type { ImageChange } from '../users/image.ts';
import type { User } from '../users/user.ts';
import type { Key } from './batch.ts';
import type { Db } from './db.ts';
import { failedConditions, type TransactItem } from './errors.ts';
import { imageWrites } from './images.ts';
import { keys } from './keys.ts';

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

/** `missing`: the account (or its user) no longer exists. */
export type ProfileOutcome = { outcome: 'updated' } | { outcome: 'missing' };

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
 * Changes the profile on the user item and its copy on the account item (with an uploaded image's
 * parts) in ONE TransactWriteItems, so they never disagree.
 */
export async function updateProfile(
  db: Db,
  account: { userId: string; scope: string; email: string },
  change: { name?: string; image?: ImageChange },
): Promise<ProfileOutcome> {
  const image = change.image ? imageUpdate(change.image) : { set: [], remove: [], values: {} };
  const set = [...(change.name !== undefined ? ['#name = :name'] : []), ...image.set];
  const expression = [
    ...(set.length > 0 ? [`SET ${set.join(', ')}`] : []),
    ...(image.remove.length > 0 ? [`REMOVE ${image.remove.join(', ')}`] : []),
  ].join(' ');
  const values = { ...(change.name !== undefined ? { ':name': change.name } : {}), ...image.values };
  const update = (key: Key): TransactItem => ({
    Update: {
      TableName: db.table,
      Key: key,
      UpdateExpression: expression,
      ConditionExpression: accountExists,
      ...(change.name !== undefined ? { ExpressionAttributeNames: { '#name': 'name' } } : {}),
      ...(Object.keys(values).length > 0 ? { ExpressionAttributeValues: values } : {}),
    },
  });
  const uploaded = change.image?.kind === 'uploaded' ? imageWrites(db.table, change.image.image) : [];
  try {
    await db.client.send(
      new TransactWriteCommand({
        TransactItems: [
          update(keys.user(account.userId)),
          update(keys.account(account.scope, account.email)),
          ...uploaded,
        ],
      }),
    );
    return { outcome: 'updated' };
  } catch (error) {
    if (failedConditions(error)) return { outcome: 'missing' };
    throw error;
  }
}
