import { GetCommand } from '@aws-sdk/lib-dynamodb';
import type { Db } from './db.ts';
import { keys } from './keys.ts';

/** A strongly consistent point read of a key that never exists: proves reachability and read access. */
export async function probeTable(db: Db): Promise<void> {
  await db.client.send(new GetCommand({ TableName: db.table, Key: keys.health, ConsistentRead: true }));
}
