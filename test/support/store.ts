import type { InitializeMiddleware, MetadataBearer } from '@smithy/types';
import type { Config } from '../../shared/config.ts';
import { createDb, type Db } from '../../shared/store/db.ts';

/**
 * The app's table through its own client, with `middleware` wrapping every command (initialize step,
 * so it sees each command once, above the SDK's retries): a store that answers late, one command at a
 * time, or with the conflicts real DynamoDB raises and DynamoDB Local never does.
 */
export function storeWith(
  config: Config,
  name: string,
  middleware: InitializeMiddleware<object, MetadataBearer>,
): Db {
  const db = createDb({
    table: config.TABLE_NAME,
    region: config.AWS_REGION,
    endpoint: config.DYNAMODB_ENDPOINT,
  });
  db.client.middlewareStack.add(middleware, { step: 'initialize', name, priority: 'low' });
  return db;
}
