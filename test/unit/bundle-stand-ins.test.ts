import { afterEach, describe, expect, it, vi } from 'vitest';
import { defaultProvider } from '../../shared/adapters/env-credentials.ts';
import { ReadableStream as LazyReadableStream } from '../../shared/adapters/lazy-streams.ts';
import { DefaultJsonSchemaValidator, process as shimmedProcess } from '../../shared/adapters/mcp-shims.ts';
import {
  NODE_ENDPOINT_DISCOVERY_CONFIG_OPTIONS,
  resolveEndpointDiscoveryConfig,
} from '../../shared/adapters/no-endpoint-discovery.ts';
import { EventStreamSerde, eventStreamSerdeProvider } from '../../shared/adapters/no-event-streams.ts';

// What a deployed bundle holds instead of modules only other hosts need (lib/bundling.ts); each
// bundle's own use of them is checked in test/infra/bundle-credentials.test.ts.

afterEach(() => {
  vi.unstubAllEnvs();
});

describe('the credential chain of a deployed bundle', () => {
  it('answers the credentials Lambda puts in the environment', async () => {
    vi.stubEnv('AWS_ACCESS_KEY_ID', 'ASIAEXAMPLESTANDIN1');
    vi.stubEnv('AWS_SECRET_ACCESS_KEY', 'stand-in-secret');
    vi.stubEnv('AWS_SESSION_TOKEN', 'stand-in-token');
    expect(await defaultProvider()()).toMatchObject({
      accessKeyId: 'ASIAEXAMPLESTANDIN1',
      secretAccessKey: 'stand-in-secret',
      sessionToken: 'stand-in-token',
    });
  });

  it('fails without them rather than look anywhere else', async () => {
    vi.stubEnv('AWS_ACCESS_KEY_ID', '');
    vi.stubEnv('AWS_SECRET_ACCESS_KEY', '');
    await expect(defaultProvider()()).rejects.toThrow(/environment variable credentials/);
  });
});

describe('the event-stream codec of a deployed bundle', () => {
  it('fails if anything ever asks for it', () => {
    expect(() => new EventStreamSerde()).toThrow(/no event-stream codec/);
    expect(() => eventStreamSerdeProvider()).toThrow(/no event-stream codec/);
  });
});

describe("the MCP SDK's shims in a deployed bundle", () => {
  it('hold no default JSON Schema validator', () => {
    expect(() => new DefaultJsonSchemaValidator()).toThrow(/no default JSON Schema validator/);
  });

  it("pass Node's own process on", () => {
    expect(shimmedProcess).toBe(process);
  });
});

describe("DynamoDB's endpoint discovery in a deployed bundle", () => {
  it('is off, whatever the environment says, and builds no endpoint cache', async () => {
    vi.stubEnv('AWS_ENABLE_ENDPOINT_DISCOVERY', 'true');
    expect(NODE_ENDPOINT_DISCOVERY_CONFIG_OPTIONS.environmentVariableSelector()).toBeUndefined();
    const config = resolveEndpointDiscoveryConfig({ region: 'us-east-1' }, {});
    expect(await config.endpointDiscoveryEnabled()).toBe(false);
    expect(config).not.toHaveProperty('endpointCache');
  });
});

describe("Node's web streams in a deployed bundle", () => {
  it("make Node's own stream, and know it", async () => {
    const made = new LazyReadableStream({
      start(controller) {
        controller.enqueue('one');
        controller.close();
      },
    });
    expect(made).toBeInstanceOf(ReadableStream);
    expect(new ReadableStream()).toBeInstanceOf(LazyReadableStream);
    expect({}).not.toBeInstanceOf(LazyReadableStream);
    const reader = made.getReader();
    expect(await reader.read()).toEqual({ done: false, value: 'one' });
    expect(await reader.read()).toEqual({ done: true, value: undefined });
  });
});
