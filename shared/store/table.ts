/**
 * The single table's key schema, shared by the CDK stack and the local table creation
 * so the two cannot drift. See docs/data-model.md for the access patterns.
 */
export const tableSchema = {
  partitionKey: 'pk',
  sortKey: 'sk',
  ttlAttribute: 'expiresAt',
  indexes: [{ name: 'gsi1', partitionKey: 'gsi1pk', sortKey: 'gsi1sk' }],
} as const;
