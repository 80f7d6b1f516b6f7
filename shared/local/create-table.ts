import {
  CreateTableCommand,
  DescribeTableCommand,
  DynamoDBClient,
  ResourceInUseException,
  UpdateTableCommand,
  UpdateTimeToLiveCommand,
} from '@aws-sdk/client-dynamodb';
import { keySchemaDefinition, tableSchema } from '../store/table.ts';

/** The stream the statistics aggregator reads (docs/data-model.md, Statistics), as the stack has it. */
const tableStream = { StreamEnabled: true, StreamViewType: 'NEW_AND_OLD_IMAGES' } as const;

/**
 * Creates the single table (same schema as the stack) if it does not exist yet. `stream: false`
 * leaves out the stream, for a table whose statistics nobody counts (a test's): DynamoDB Local's
 * writes slow down as stream records pile up (test/support/global-setup.ts).
 */
export async function ensureTable(
  endpoint: string,
  table: string,
  { stream = true }: { stream?: boolean } = {},
): Promise<void> {
  const client = new DynamoDBClient({
    endpoint,
    region: 'us-east-1',
    credentials: { accessKeyId: 'local', secretAccessKey: 'local' },
  });
  try {
    await client.send(
      new CreateTableCommand({
        TableName: table,
        BillingMode: 'PAY_PER_REQUEST',
        ...keySchemaDefinition,
        ...(stream ? { StreamSpecification: tableStream } : {}),
      }),
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
    if (stream) await addMissingStream(client, table);
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

/**
 * A table kept in `.data/` from before the statistics aggregator gets its stream: the statistics
 * count what changes from then on, beside the counters the requests of before wrote.
 */
async function addMissingStream(client: DynamoDBClient, table: string): Promise<void> {
  const { Table } = await client.send(new DescribeTableCommand({ TableName: table }));
  if (Table?.StreamSpecification?.StreamEnabled) return;
  await client.send(new UpdateTableCommand({ TableName: table, StreamSpecification: tableStream }));
}
