import { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { conflictRetry } from './conflict-retry.ts';

/** The document client and the table every repository works on. */
export interface Db {
  readonly client: DynamoDBDocumentClient;
  readonly table: string;
}

export interface DbOptions {
  table: string;
  region: string;
  endpoint?: string;
}

export function createDb({ table, region, endpoint }: DbOptions): Db {
  const raw = new DynamoDBClient({
    region,
    maxAttempts: 3,
    ...(endpoint ? { endpoint, credentials: { accessKeyId: 'local', secretAccessKey: 'local' } } : {}),
  });
  // Below the document client, so every command (and every transaction) gets it.
  raw.middlewareStack.add(conflictRetry, { step: 'initialize', name: 'conflictRetry', priority: 'high' });
  const client = DynamoDBDocumentClient.from(raw, {
    marshallOptions: { removeUndefinedValues: true },
  });
  return { client, table };
}
