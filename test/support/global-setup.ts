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

interface Services {
  dynamoEndpoint: string;
  sesEndpoint: string;
  stop(): Promise<void>;
}

async function startServices(): Promise<Services> {
  const dynamo = await startDynamoDbLocal({ port: await freePort() });
  const ses = await startSesLocal({ port: await freePort() });
  return {
    dynamoEndpoint: dynamo.endpoint,
    sesEndpoint: ses.endpoint,
    stop: async () => {
      await ses.stop();
      await dynamo.stop();
    },
  };
}

/**
 * The services of the run, with the lanes using them. Each lane (vitest.config.ts) loads this file in
 * its own module graph, so the lanes of one run find the running services on the process's global.
 */
const run = globalThis as { doorcodeServices?: { started: Promise<Services>; lanes: number } };

/**
 * One in-memory DynamoDB Local and one SES emulator for the whole run, shared by every lane that lists
 * this file (http, browser, e2e) and started only when one of them has a file to run; each test file
 * makes its own table.
 */
export default async function setup(project: TestProject) {
  run.doorcodeServices ??= { started: startServices(), lanes: 0 };
  const services = run.doorcodeServices;
  services.lanes += 1;
  const { dynamoEndpoint, sesEndpoint } = await services.started;
  project.provide('dynamoEndpoint', dynamoEndpoint);
  project.provide('sesEndpoint', sesEndpoint);
  return async () => {
    services.lanes -= 1;
    if (services.lanes > 0) return;
    delete run.doorcodeServices;
    await (await services.started).stop();
  };
}
