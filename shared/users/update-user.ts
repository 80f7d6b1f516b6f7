import { TransactWriteCommand } from '@aws-sdk/lib-dynamodb';
import type { Deps } from '../deps.ts';
import { unauthorized } from '../errors.ts';
import type { ResolvedSession } from '../sessions/resolve.ts';
import { failedConditions } from '../store/errors.ts';
import { keys } from '../store/keys.ts';
import type { User } from './user.ts';

export interface ProfileChange {
  name?: string;
  /** Empty string removes the photo (SPEC §2). */
  image?: string;
}

/**
 * POST /auth/update-user. The profile lives on the user item and, as a copy, on the account
 * (email) item that sign-in reads; one transaction keeps them equal.
 */
export async function updateUser(deps: Deps, current: ResolvedSession, change: ProfileChange): Promise<User> {
  const set: string[] = [];
  const remove: string[] = [];
  const values: Record<string, unknown> = {};
  const names: Record<string, string> = {};
  if (change.name !== undefined) {
    set.push('#name = :name');
    names['#name'] = 'name';
    values[':name'] = change.name;
  }
  if (change.image !== undefined) {
    names['#image'] = 'image';
    if (change.image === '') remove.push('#image');
    else {
      set.push('#image = :image');
      values[':image'] = change.image;
    }
  }
  const expression = [
    set.length ? `SET ${set.join(', ')}` : '',
    remove.length ? `REMOVE ${remove.join(', ')}` : '',
  ]
    .filter(Boolean)
    .join(' ');
  const update = (key: { pk: string; sk: string }) => ({
    Update: {
      TableName: deps.db.table,
      Key: key,
      UpdateExpression: expression,
      ConditionExpression: 'attribute_exists(pk)',
      ExpressionAttributeNames: names,
      ...(Object.keys(values).length ? { ExpressionAttributeValues: values } : {}),
    },
  });
  const { user } = current;
  try {
    await deps.db.client.send(
      new TransactWriteCommand({
        TransactItems: [update(keys.user(user.id)), update(keys.account(current.session.scope, user.email))],
      }),
    );
  } catch (error) {
    if (failedConditions(error)) throw unauthorized('The account no longer exists');
    throw error;
  }
  return {
    ...user,
    ...(change.name !== undefined ? { name: change.name } : {}),
    ...(change.image !== undefined ? { image: change.image === '' ? null : change.image } : {}),
  };
}
