/**
 * The single table's key schema, shared by the CDK stack and the local table creation
 * so the two cannot drift. See docs/data-model.md for the access patterns.
 */
export const tableSchema = {
  partitionKey: 'pk',
  sortKey: 'sk',
  ttlAttribute: 'expiresAt',
  indexes: [
    { name: 'gsi1', partitionKey: 'gsi1pk', sortKey: 'gsi1sk' },
    // Application users by lower-cased name (insights search by name prefix); gsi1 has them by address.
    { name: 'gsi2', partitionKey: 'gsi2pk', sortKey: 'gsi2sk' },
  ],
} as const;

/**
 * The key schema in DynamoDB API form (`CreateTable`, and CloudFormation's AWS::DynamoDB::Table uses
 * the same property names): used to create the local table and to check the synthesized one.
 */
export const keySchemaDefinition = {
  AttributeDefinitions: [
    tableSchema.partitionKey,
    tableSchema.sortKey,
    ...tableSchema.indexes.flatMap((index) => [index.partitionKey, index.sortKey]),
  ].map((name) => ({ AttributeName: name, AttributeType: 'S' as const })),
  KeySchema: [
    { AttributeName: tableSchema.partitionKey, KeyType: 'HASH' as const },
    { AttributeName: tableSchema.sortKey, KeyType: 'RANGE' as const },
  ],
  GlobalSecondaryIndexes: tableSchema.indexes.map((index) => ({
    IndexName: index.name,
    KeySchema: [
      { AttributeName: index.partitionKey, KeyType: 'HASH' as const },
      { AttributeName: index.sortKey, KeyType: 'RANGE' as const },
    ],
    Projection: { ProjectionType: 'ALL' as const },
  })),
};
