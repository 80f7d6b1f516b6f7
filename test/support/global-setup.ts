import type { TestProject } from 'vitest/node';
import { startDynamoDbLocal } from '../../shared/local/dynamodb-local.ts';
import { freePort } from '../../shared/local/ports.ts';
import { startSesLocal } from '../../shared/local/ses-local.ts';

declare module 'vitest' {
  export interface ProvidedContext {
    dynamoEndpoint: string;
    sesEndpoint: string;
  }
}

/** One in-memory DynamoDB Local and one SES emulator for the whole run; each test file makes its own table. */
export default async function setup(project: TestProject) {
  const dynamo = await startDynamoDbLocal({ port: await freePort() });
  const ses = await startSesLocal({ port: await freePort() });
  project.provide('dynamoEndpoint', dynamo.endpoint);
  project.provide('sesEndpoint', ses.endpoint);
  return async () => {
    await ses.stop();
    await dynamo.stop();
  };
}
