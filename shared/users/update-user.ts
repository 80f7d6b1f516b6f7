import { TransactWriteCommand } from '@aws-sdk/lib-dynamodb';
import type { Deps } from '../deps.ts';
import { fail } from '../errors.ts';
import type { ResolvedSession } from '../sessions/resolve.ts';
import { failedConditions } from '../store/errors.ts';
import { keys } from '../store/keys.ts';
import { imageWrites } from './profile.ts';
import type { User } from './user.ts';

export interface ProfileChange {
  name?: string;
  /** Empty string removes the photo (SPEC §2). */
  image?: string;
}

/**
 * POST /auth/update-user. The profile lives on the user item and, as a copy, on the account
 * (email) item that sign-in reads, with the image in parts beside the account; one transaction
 * writes them all, so they never disagree.
 */
export async function updateUser(deps: Deps, current: ResolvedSession, change: ProfileChange): Promise<User> {
  const { user } = current;
  const scope = current.session.scope;
  const set: string[] = [];
  const values: Record<string, unknown> = {};
  if (change.name !== undefined) {
    set.push('#name = :name');
    values[':name'] = change.name;
  }
  const image =
    change.image === undefined ? null : imageWrites(deps.db.table, scope, user.email, change.image);
  if (image) {
    set.push('imageParts = :parts');
    values[':parts'] = image.parts;
  }
  const update = (key: { pk: string; sk: string }) => ({
    Update: {
      TableName: deps.db.table,
      Key: key,
      UpdateExpression: `SET ${set.join(', ')}`,
      ConditionExpression: 'attribute_exists(pk)',
      ...(change.name !== undefined ? { ExpressionAttributeNames: { '#name': 'name' } } : {}),
      ExpressionAttributeValues: values,
    },
  });
  try {
    await deps.db.client.send(
      new TransactWriteCommand({
        TransactItems: [
          update(keys.user(user.id)),
          update(keys.account(scope, user.email)),
          ...(image?.items ?? []),
        ],
      }),
    );
  } catch (error) {
    if (failedConditions(error)) throw fail('unauthorized', 'The account no longer exists');
    throw error;
  }
  return {
    ...user,
    ...(change.name !== undefined ? { name: change.name } : {}),
    ...(change.image !== undefined ? { image: change.image === '' ? null : change.image } : {}),
  };
}
