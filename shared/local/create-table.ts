import {
  CreateTableCommand,
  DescribeTableCommand,
  DynamoDBClient,
  ResourceInUseException,
  UpdateTableCommand,
  UpdateTimeToLiveCommand,
} from '@aws-sdk/client-dynamodb';
import { keySchemaDefinition, tableSchema } from '../store/table.ts';

/** Creates the single table (same schema as the stack) if it does not exist yet. */
export async function ensureTable(endpoint: string, table: string): Promise<void> {
  const client = new DynamoDBClient({
    endpoint,
    region: 'us-east-1',
    credentials: { accessKeyId: 'local', secretAccessKey: 'local' },
  });
  try {
    await client.send(
      new CreateTableCommand({ TableName: table, BillingMode: 'PAY_PER_REQUEST', ...keySchemaDefinition }),
    );
    await client.send(
      new UpdateTimeToLiveCommand({
        TableName: table,
        TimeToLiveSpecification: { AttributeName: tableSchema.ttlAttribute, Enabled: true },
      }),
    );
  } catch (error) {
    if (!(error instanceof ResourceInUseException)) throw error;
    await addMissingIndexes(client, table);
  } finally {
    client.destroy();
  }
}

/**
 * A table kept in `.data/` from an earlier version gets the indexes added since (gsi2 came with the
 * application users' search), one per UpdateTable as DynamoDB requires.
 */
async function addMissingIndexes(client: DynamoDBClient, table: string): Promise<void> {
  const { Table } = await client.send(new DescribeTableCommand({ TableName: table }));
  const present = new Set((Table?.GlobalSecondaryIndexes ?? []).map((index) => index.IndexName));
  for (const index of keySchemaDefinition.GlobalSecondaryIndexes) {
    if (present.has(index.IndexName)) continue;
    await client.send(
      new UpdateTableCommand({
        TableName: table,
        AttributeDefinitions: keySchemaDefinition.AttributeDefinitions,
        GlobalSecondaryIndexUpdates: [{ Create: index }],
      }),
    );
  }
}
