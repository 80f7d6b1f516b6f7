import { GetCommand } from '@aws-sdk/lib-dynamodb';
import type { Item } from './batch.ts';
import type { Db } from './db.ts';
import { type CreateOutcome, putNew } from './items.ts';
import { keys } from './keys.ts';

/** One GetItem (eventually consistent). */
export async function readApplication(db: Db, applicationId: string): Promise<Item | undefined> {
  const { Item } = await db.client.send(
    new GetCommand({ TableName: db.table, Key: keys.application(applicationId) }),
  );
  return Item;
}

/** Stores an application record (shared/tenancy/applications.ts `Application`) under its id. */
export async function putApplication<Record extends { readonly id: string }>(
  db: Db,
  app: Record,
): Promise<CreateOutcome> {
  return putNew(db, { ...keys.application(app.id), type: 'application', ...app });
}
