import type { TestProject } from 'vitest/node';
import { startDynamoDbLocal } from '../../shared/local/dynamodb-local.ts';
import { freePort } from '../../shared/local/ports.ts';
import { startSesLocal } from '../../shared/local/ses-local.ts';

declare module 'vitest' {
  export interface ProvidedContext {
    dynamoEndpoint: string;
    dynamoStreamEndpoint: string;
    sesEndpoint: string;
    fcSeed: number;
  }
}

interface Services {
  dynamoEndpoint: string;
  dynamoStreamEndpoint: string;
  sesEndpoint: string;
  stop(): Promise<void>;
}

/**
 * Two DynamoDB Locals: the tables of the apps that count statistics have a stream, and DynamoDB
 * Local's every write slows down as stream records pile up, across all its tables and even after
 * they are deleted (2,500 puts took 2.4 to 2.7 s on a table without a stream whatever came before,
 * and 6.8 s then 20.1 s on the eighth table with one, 2026-11-27). The files that read no stream
 * keep an instance that never holds a record.
 */
async function startServices(): Promise<Services> {
  const started = await Promise.allSettled([
    freePort().then((port) => startDynamoDbLocal({ port })),
    freePort().then((port) => startDynamoDbLocal({ port })),
    freePort().then((port) => startSesLocal({ port })),
  ]);
  const stopAll = async () => {
    await Promise.allSettled(
      started.map((start) => (start.status === 'fulfilled' ? start.value.stop() : undefined)),
    );
  };
  const [dynamo, dynamoStream, ses] = started;
  if (dynamo?.status !== 'fulfilled' || dynamoStream?.status !== 'fulfilled' || ses?.status !== 'fulfilled') {
    // What did start is stopped: a failed run leaves no JVM or emulator behind.
    await stopAll();
    const failed = started.find((start) => start.status === 'rejected');
    throw failed?.reason ?? new Error('a test service did not start');
  }
  return {
    dynamoEndpoint: dynamo.value.endpoint,
    dynamoStreamEndpoint: dynamoStream.value.endpoint,
    sesEndpoint: ses.value.endpoint,
    stop: stopAll,
  };
}

/**
 * The services of the run, with the lanes using them. Each lane (vitest.config.ts) loads this file in
 * its own module graph, so the lanes of one run find the running services on the process's global.
 */
const run = globalThis as { doorcodeServices?: { started: Promise<Services>; lanes: number } };

/**
 * The in-memory DynamoDB Locals and one SES emulator for the whole run, shared by every lane that lists
 * this file (http, browser, e2e) and started only when one of them has a file to run; each test file
 * makes its own table.
 */
export default async function setup(project: TestProject) {
  run.doorcodeServices ??= { started: startServices(), lanes: 0 };
  const services = run.doorcodeServices;
  services.lanes += 1;
  const { dynamoEndpoint, dynamoStreamEndpoint, sesEndpoint } = await services.started;
  project.provide('dynamoEndpoint', dynamoEndpoint);
  project.provide('dynamoStreamEndpoint', dynamoStreamEndpoint);
  project.provide('sesEndpoint', sesEndpoint);
  return async () => {
    services.lanes -= 1;
    if (services.lanes > 0) return;
    delete run.doorcodeServices;
    await (await services.started).stop();
  };
}
