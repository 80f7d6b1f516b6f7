import { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { DynamoDBDocumentClient, GetCommand } from '@aws-sdk/lib-dynamodb';

// What a table route's adapter holds: the document client over a DynamoDB client.
const client = DynamoDBDocumentClient.from(new DynamoDBClient({}));

export const firstCall = () =>
  client.send(new GetCommand({ TableName: 'floor', Key: { pk: 'FLOOR', sk: 'FLOOR' } }));
