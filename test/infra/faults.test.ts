import { join } from 'node:path';
import { DynamoDBClient, GetItemCommand } from '@aws-sdk/client-dynamodb';
import { build } from 'esbuild';
import { afterEach, describe, expect, it } from 'vitest';
import { loadConfig } from '../../shared/config.ts';
import { FaultPlan, mulberry32, parseFaultSettings, withFaults } from '../../shared/local/faults.ts';
import { routeList } from '../../shared/routes.ts';
import { synthDoorcode, variablesOf } from './synth.ts';

// Fault injection is local mode's alone (docs/reliability.md, "Faults"): these prove it can never
// reach a deployed function, and that the SDK's own retries see what it injects.

const repoRoot = join(import.meta.dirname, '..', '..');
const faultsModule = 'shared/local/faults.ts';

afterEach(() => {
  delete process.env.FAULTS;
  delete process.env.FAULT_SEED;
});

describe('FAULTS never reaches a deployed function', () => {
  it('gives no function of the stack a FAULTS or FAULT_SEED variable, even when the synth has them', () => {
    // The stack must not pass its own environment on: synth with faults set where it runs.
    process.env.FAULTS = 'dynamodb:1';
    process.env.FAULT_SEED = '1';
    const { resources } = synthDoorcode();
    const functions = Object.entries(resources).filter(([, r]) => r.Type === 'AWS::Lambda::Function');
    expect(functions.length).toBeGreaterThanOrEqual(routeList.length);
    for (const [id, fn] of functions) {
      const names = Object.keys(fn.Properties.Environment ? variablesOf(fn) : {});
      expect({ id, names: names.filter((name) => name.startsWith('FAULT')) }).toEqual({ id, names: [] });
    }
    // A synth without bundling: about 30 s on two busy cores.
  }, 180_000);

  it('refuses to configure a function whose environment holds FAULTS or FAULT_SEED', () => {
    const env = {
      TABLE_NAME: 'doorcode',
      ISSUER: 'https://auth.example.com',
      MAIL_FROM: 'no-reply@example.com',
    };
    expect(loadConfig(env).TABLE_NAME).toBe('doorcode');
    expect(() => loadConfig({ ...env, FAULTS: 'dynamodb:0.05' })).toThrow(
      /FAULTS: fault injection is for local mode only/,
    );
    expect(() => loadConfig({ ...env, FAULT_SEED: '7' })).toThrow(/FAULT_SEED/);
  });

  it('leaves the fault module out of every route bundle', async () => {
    // One build of every handler with the service's own files inlined and packages left out: what
    // each entry reaches through its imports is what its bundle may hold.
    const { metafile } = await build({
      absWorkingDir: repoRoot,
      entryPoints: [...new Set(routeList.map((route) => route.entry))],
      bundle: true,
      platform: 'node',
      format: 'esm',
      packages: 'external',
      outdir: join(repoRoot, 'cdk.out', 'fault-check'),
      write: false,
      metafile: true,
      logLevel: 'silent',
    });
    const inputs = Object.keys(metafile.inputs);
    expect(inputs.length).toBeGreaterThan(routeList.length);
    expect(inputs.filter((path) => path.startsWith('shared/local/'))).toEqual([]);
    expect(inputs).not.toContain(faultsModule);
  }, 60_000);
});

describe('FAULTS and FAULT_SEED', () => {
  it('reads kinds and rates, and the seed', () => {
    expect(parseFaultSettings('dynamodb:0.05,kms:0.02, ses:0.05,lost:0.02', '42')).toEqual({
      rates: { dynamodb: 0.05, lost: 0.02, latency: 0, kms: 0.02, ses: 0.05, secrets: 0 },
      seed: 42,
    });
    expect(parseFaultSettings(undefined, undefined)).toBeNull();
    expect(parseFaultSettings('latency:1', undefined, () => 7)?.seed).toBe(7);
  });

  it.each([
    ['', undefined, /FAULTS is empty/],
    ['dynamodb', undefined, /"dynamodb" is not kind:rate/],
    ['dynamo:0.1', undefined, /"dynamo" is not a fault kind/],
    ['dynamodb:1.5', undefined, /must be from 0 to 1, not 1.5/],
    ['dynamodb:0.1,dynamodb:0.2', undefined, /"dynamodb" is given twice/],
    ['dynamodb:-0.1', undefined, /is not kind:rate/],
    ['dynamodb:0.1', 'x', /FAULT_SEED must be a whole number/],
    ['dynamodb:0.1', '4294967296', /FAULT_SEED must be a whole number/],
    [undefined, '3', /FAULT_SEED is set but FAULTS is not/],
  ])('refuses FAULTS=%j FAULT_SEED=%j', (faults, seed, problem) => {
    expect(() => parseFaultSettings(faults, seed)).toThrow(problem);
  });

  it('draws the same numbers from the same seed', () => {
    const draws = (seed: number) => Array.from({ length: 5 }, mulberry32(seed));
    expect(draws(9)).toEqual(draws(9));
    expect(draws(9)).not.toEqual(draws(10));
    expect(draws(9).every((n) => n >= 0 && n < 1)).toBe(true);
  });
});

/** A DynamoDB client whose "service" answers every send with an empty GetItem, counting the sends. */
function stubbedClient() {
  let sends = 0;
  const client = new DynamoDBClient({
    region: 'us-east-1',
    endpoint: 'http://127.0.0.1:9',
    credentials: { accessKeyId: 'local', secretAccessKey: 'local' },
    maxAttempts: 3,
    requestHandler: {
      handle: async () => {
        sends++;
        return {
          response: {
            statusCode: 200,
            headers: { 'content-type': 'application/x-amz-json-1.0' },
            body: new TextEncoder().encode('{}'),
          },
        };
      },
    },
  });
  return { client, sends: () => sends };
}

const getItem = new GetItemCommand({ TableName: 't', Key: { pk: { S: 'a' }, sk: { S: 'b' } } });

describe('faults at the SDK boundary are seen by the SDK retries', () => {
  it('retries an injected throttle as the service answered it, and gives its error after the last attempt', async () => {
    const { client, sends } = stubbedClient();
    const plan = new FaultPlan(parseFaultSettings('dynamodb:1', '1')!);
    withFaults({ db: { client, table: 't' }, mailer: {} } as never, plan);
    const error = await client
      .send(getItem)
      .catch((e: unknown) => e as Error & { $metadata: { attempts: number } });
    expect((error as Error).name).toMatch(
      /ProvisionedThroughputExceededException|ThrottlingException|InternalServerError/,
    );
    expect((error as { $metadata: { attempts: number } }).$metadata.attempts).toBe(3);
    expect(sends()).toBe(0);
    expect(Object.values(plan.counts()).reduce((a, b) => a + b, 0)).toBe(3);
  });

  it('sends a call whose answer is lost, and the SDK sends it again', async () => {
    const { client, sends } = stubbedClient();
    const plan = new FaultPlan(parseFaultSettings('lost:1', '1')!);
    withFaults({ db: { client, table: 't' }, mailer: {} } as never, plan);
    const error = await client.send(getItem).catch((e: unknown) => e as Error & { code?: string });
    expect((error as { code?: string }).code).toBe('ECONNRESET');
    expect(sends()).toBe(3);
    plan.active = false;
    await expect(client.send(getItem)).resolves.toMatchObject({ $metadata: { httpStatusCode: 200 } });
    expect(sends()).toBe(4);
    expect(plan.counts()).toEqual({ lost: 3 });
  });
});
