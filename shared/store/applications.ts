import { GetCommand, PutCommand } from '@aws-sdk/lib-dynamodb';
import type { Item } from './batch.ts';
import type { Db } from './db.ts';
import { conditionFailureItem, holdsWrittenItem, isConditionFailure } from './errors.ts';
import { keys } from './keys.ts';

/** One GetItem (eventually consistent). */
export async function readApplication(db: Db, applicationId: string): Promise<Item | undefined> {
  const { Item } = await db.client.send(
    new GetCommand({ TableName: db.table, Key: keys.application(applicationId) }),
  );
  return Item;
}

// A new application never overwrites another with the same id.
const newApplication = 'attribute_not_exists(pk)';

export type CreateOutcome = { outcome: 'created' } | { outcome: 'exists' };

/** Stores an application record (shared/tenancy/applications.ts `Application`) under its id. */
export async function putApplication<Record extends { readonly id: string }>(
  db: Db,
  app: Record,
): Promise<CreateOutcome> {
  const item = { ...keys.application(app.id), type: 'application', ...app };
  try {
    await db.client.send(
      new PutCommand({
        TableName: db.table,
        Item: item,
        ConditionExpression: newApplication,
        ReturnValuesOnConditionCheckFailure: 'ALL_OLD',
      }),
    );
    return { outcome: 'created' };
  } catch (error) {
    if (!isConditionFailure(error)) throw error;
    // An SDK resend of our own Put that had landed (its answer lost) finds our item: created.
    return holdsWrittenItem(conditionFailureItem(error), item)
      ? { outcome: 'created' }
      : { outcome: 'exists' };
  }
}
