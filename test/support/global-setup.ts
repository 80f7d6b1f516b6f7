import type { TestProject } from 'vitest/node';
import { startDynamoDbLocal } from '../../shared/local/dynamodb-local.ts';
import { freePort } from '../../shared/local/ports.ts';
import { startSesLocal } from '../../shared/local/ses-local.ts';

declare module 'vitest' {
  export interface ProvidedContext {
    dynamoEndpoint: string;
    sesEndpoint: string;
    fcSeed: number;
  }
}

/** The fast-check seed when `FC_SEED` is not set: a constant, so a run is the same on every machine. */
const DEFAULT_FC_SEED = 20_261_123;

function fastCheckSeed(value = process.env.FC_SEED): number {
  if (value === undefined || value === '') return DEFAULT_FC_SEED;
  const seed = Number(value);
  // fast-check seeds are 32-bit integers (it prints them so in a failure report).
  if (!Number.isInteger(seed) || (seed | 0) !== seed) {
    throw new Error(`FC_SEED must be a 32-bit integer, not ${JSON.stringify(value)}`);
  }
  return seed;
}

/** One in-memory DynamoDB Local and one SES emulator for the whole run; each test file makes its own table. */
export default async function setup(project: TestProject) {
  const seed = fastCheckSeed();
  console.log(
    `fast-check seed ${seed} (replay a failing property with FC_SEED=${seed} npx vitest run <file>)`,
  );
  project.provide('fcSeed', seed);
  const dynamo = await startDynamoDbLocal({ port: await freePort() });
  const ses = await startSesLocal({ port: await freePort() });
  project.provide('dynamoEndpoint', dynamo.endpoint);
  project.provide('sesEndpoint', ses.endpoint);
  return async () => {
    await ses.stop();
    await dynamo.stop();
  };
}
