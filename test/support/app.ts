import { randomBytes, randomUUID } from 'node:crypto';
import type { Clock } from '../../shared/clock.ts';
import { loadConfig } from '../../shared/config.ts';
import { inMemoryCodeHasher } from '../../shared/crypto/local-code-key.ts';
import { LocalSecretSealer } from '../../shared/crypto/local-secret-sealer.ts';
import { LocalSigner } from '../../shared/crypto/local-signer.ts';
import { createDeps, type Deps } from '../../shared/deps.ts';
import { UNDECLARED_ERROR } from '../../shared/http/handler.ts';
import { ensureTable } from '../../shared/local/create-table.ts';
import { startServer } from '../../shared/local/server.ts';
import { createLogger } from '../../shared/log.ts';
import { TestClock } from './clock.ts';
import { type RequestOptions, send, type TestResponse } from './http-client.ts';
import { testKeyPair } from './keys.ts';
import { serviceEndpoint } from './services.ts';

export const TEST_ISSUER = 'https://auth.doorcode.test';
export const PLATFORM_ORIGIN = 'https://app.doorcode.test';
/** The code-hash key of every test app (hex), so a test can tell what a stored code hash must be. */
export const TEST_CODE_KEY = '5e'.repeat(32);

export interface TestApp {
  url: string;
  deps: Deps;
  clock: TestClock;
  /** Every log line the service wrote, as parsed JSON. */
  logs: string[];
  request<T = any>(method: string, path: string, options?: RequestOptions): Promise<TestResponse<T>>;
  /**
   * Once every change made so far is counted by the statistics aggregator (docs/data-model.md,
   * Statistics); rejects for an app started without `statistics`.
   */
  caughtUp(): Promise<void>;
  close(): Promise<void>;
}

/** Adapters to use instead of the defaults; `config` stays the one built from `env`. */
type DepsOverrides = Partial<Omit<Deps, 'config'>>;

export interface TestAppOptions {
  env?: Record<string, string>;
  /**
   * Replacement adapters, or a function of the app's default dependencies that returns them (to
   * wrap the real mailer, say). The server is started with the result; `deps` is never changed later.
   */
  overrides?: DepsOverrides | ((defaults: Deps) => DepsOverrides);
  clock?: Clock;
  /**
   * The port to listen on (default: any free one). A browser test that needs the service's own
   * origin to be its ISSUER picks the port first and sets `ISSUER` to `http://127.0.0.1:<port>`.
   */
  port?: number;
  /**
   * Counts statistics: the table gets a stream (in the run's second DynamoDB Local, whose writes
   * slow down as stream records pile up: test/support/global-setup.ts) and the aggregator reads it
   * when `caughtUp` asks. Off by default: a file that reads no statistics writes no stream record.
   */
  statistics?: boolean;
  /**
   * With `statistics`, how often the aggregator also reads the stream in the background: by default
   * never, only when `caughtUp` asks (a test decides when records are counted); the dashboard's tests
   * read it as `npm start` does.
   */
  aggregateEveryMs?: number;
  /** The function timeout of each invocation (`startServer`'s `functionTimeoutMs`): the stack's by default. */
  functionTimeoutMs?: number | (() => number);
}

/**
 * The real local server (same handlers as Lambda) on a free port, over a fresh table in one of the
 * run's DynamoDB Locals (the second for an app with `statistics`) and the run's SES emulator.
 */
export async function startTestApp(options: TestAppOptions = {}): Promise<TestApp> {
  const table = `test-${randomUUID()}`;
  const statistics = options.statistics ?? false;
  if (options.aggregateEveryMs !== undefined && !statistics) {
    throw new Error('aggregateEveryMs reads a stream: start the app with { statistics: true }');
  }
  const dynamoEndpoint =
    options.env?.DYNAMODB_ENDPOINT ?? serviceEndpoint(statistics ? 'dynamoStreamEndpoint' : 'dynamoEndpoint');
  if (!options.env?.DYNAMODB_ENDPOINT) await ensureTable(dynamoEndpoint, table, { stream: statistics });
  const config = loadConfig({
    TABLE_NAME: table,
    ISSUER: TEST_ISSUER,
    MAIL_FROM: 'no-reply@doorcode.test',
    PLATFORM_ORIGINS: PLATFORM_ORIGIN,
    DYNAMODB_ENDPOINT: dynamoEndpoint,
    SES_ENDPOINT: serviceEndpoint('sesEndpoint'),
    // The emulator accepts it like SES does: every test's send names the configuration set.
    SES_CONFIGURATION_SET: 'doorcode-test',
    LOG_LEVEL: 'debug',
    ...options.env,
  });
  const clock = (options.clock as TestClock | undefined) ?? new TestClock(Date.now());
  const logs: string[] = [];
  const defaults = createDeps(config, {
    signer: new LocalSigner(testKeyPair().pem),
    codeHasher: inMemoryCodeHasher(TEST_CODE_KEY),
    sealer: new LocalSecretSealer(randomBytes(32)),
    clock,
    logger: createLogger('debug', (line) => logs.push(line)),
  });
  const overrides =
    typeof options.overrides === 'function' ? options.overrides(defaults) : (options.overrides ?? {});
  const deps: Deps = { ...defaults, ...overrides };
  const server = await startServer({
    port: options.port ?? 0,
    deps,
    streamIntervalMs: statistics ? (options.aggregateEveryMs ?? 0) : false,
    functionTimeoutMs: options.functionTimeoutMs,
  });
  return {
    url: server.url,
    deps,
    clock,
    logs,
    request: (method, path, requestOptions) => send(server.url, method, path, requestOptions),
    caughtUp: () => server.statisticsCaughtUp(),
    close: async () => {
      await server.close();
      // Every error a route answers must be in its contract's list (shared/routes.ts): fail the file
      // that made a route answer one it does not declare.
      const undeclared = logs.filter((line) => line.includes(UNDECLARED_ERROR));
      if (undeclared.length > 0) throw new Error(`Undeclared errors answered:\n${undeclared.join('\n')}`);
    },
  };
}
