/**
 * Each route's first request, a successful one: the call-budget table (fixtures/call-budgets/) holds,
 * for every route, scenarios that make the state a request needs on the real service (the handlers
 * over DynamoDB Local and the SES emulator) and then send it. Here that service holds the keys of the
 * bench's AWS stub (bench/aws-stub.ts: the signing key, the code-hash key, the sealer), a route's
 * scenario makes its state, and its request is caught instead of sent: it becomes the API Gateway
 * event of the route's bundle, whose first run reads and writes that same table through the stub's
 * recording, and whose later runs get the recorded answers back.
 */
import { randomUUID } from 'node:crypto';
import { createServer, request } from 'node:https';
import type { AddressInfo } from 'node:net';
import { setTimeout as sleep } from 'node:timers/promises';
import { KMSClient } from '@aws-sdk/client-kms';
import type { BudgetApp, Response } from '../fixtures/call-budgets/app.ts';
import type { CallBudget } from '../fixtures/call-budgets/budget.ts';
import { callBudgets } from '../fixtures/call-budgets/table.ts';
import { CallCounter } from '../fixtures/call-counter.ts';
import { type RequestOptions, send } from '../fixtures/loopback-client.ts';
import { startClientMetadataServer, testCertificates } from '../fixtures/metadata-host.ts';
import { socialEnv, startSocialProviders } from '../fixtures/social-hosts.ts';
import { loadConfig } from '../shared/config.ts';
import { KmsSecretSealer } from '../shared/crypto/kms-secret-sealer.ts';
import { inMemoryCodeHasher } from '../shared/crypto/local-code-key.ts';
import { LocalSigner } from '../shared/crypto/local-signer.ts';
import { createDeps, type Deps } from '../shared/deps.ts';
import type { HttpEvent } from '../shared/http/types.ts';
import { ensureTable } from '../shared/local/create-table.ts';
import { startDynamoDbLocal } from '../shared/local/dynamodb-local.ts';
import { freePort } from '../shared/local/ports.ts';
import { startServer } from '../shared/local/server.ts';
import { startSesLocal } from '../shared/local/ses-local.ts';
import { createLogger } from '../shared/log.ts';
import type { RouteSpec } from '../shared/routes.ts';
import { CODE_KEY_HEX } from './aws-stub.ts';
import { BENCH_ISSUER, BENCH_ORIGIN, eventOf } from './events.ts';

type Route = RouteSpec & { readonly id: string };

/** A route's request, caught when its scenario sends it. */
interface FirstRequest {
  /** The call-budget row it comes from: what sets the request apart. */
  readonly scenario: string;
  /** What the real service answers it (the row's status). */
  readonly status: number;
  readonly event: HttpEvent;
}

/**
 * A social provider's answers to one request's calls: recorded on its first run, replayed on the
 * others, each once, to the same method and path (calls made side by side come in any order).
 */
export interface ProviderRecording {
  readonly answers: Array<{
    readonly call: string;
    readonly status: number;
    readonly body: Buffer;
    readonly type: string;
  }>;
  misses: number;
}

/** Where a bundle's calls to the GitHub-style provider go: on to it, through a recording, or a replay. */
export type ProviderSource =
  | { readonly kind: 'through' }
  | { readonly kind: 'record' | 'replay'; readonly recording: ProviderRecording };

export interface FirstRequests {
  /** The service's settings for a route's bundle (besides the AWS ones, which name the stub). */
  readonly env: Readonly<Record<string, string>>;
  /** DynamoDB Local, where a route's first run reads and writes through the stub's recording. */
  readonly dynamodbEndpoint: string;
  /** Makes the state of `route`'s scenario and catches its request; none when the route has no row. */
  prepare(route: Route): Promise<FirstRequest | undefined>;
  /**
   * Where the next process's calls to the GitHub-style provider go (`SOCIAL_GITHUB_URL` of `env`): a
   * callback exchanges a single-use code there, which a replay must not spend again.
   */
  useProvider(source: ProviderSource): void;
  close(): Promise<void>;
}

/** The row a route is measured by, when not the first successful one that reaches the table. */
const preferred: Readonly<Record<string, string>> = {
  // A signed-in session, the common case, rather than a key alone.
  session: "a platform session's Bearer token",
};

/** The route's row: its preferred one, else the first that succeeds and reaches the table when the route can. */
function rowOf(route: Route): CallBudget | undefined {
  const rows = callBudgets.filter((row) => row.route === `${route.method} ${route.path}`);
  const wanted = preferred[route.id];
  const succeeds = rows.filter((row) => row.status >= 200 && row.status < 400);
  return (
    (wanted === undefined ? undefined : rows.find((row) => row.scenario.startsWith(wanted))) ??
    succeeds.find((row) => row.dynamodb.length > 0 || route.access.table === undefined) ??
    succeeds[0] ??
    rows[0]
  );
}

/** Thrown by the caught request, so the rest of the scenario (its checks of the answer) does not run. */
class Caught extends Error {}

let lastIp = 0;
/** A loopback address of its own, as each request of the budget app has (the per-IP limits). */
const freshLoopback = () => {
  const n = ++lastIp;
  return `127.${160 + ((process.pid >> 16) & 0x1f)}.${(n >> 8) & 0xff}.${n & 0xff}`;
};

/** An HTTPS stand-in in front of `target` (a provider of fixtures/social-hosts.ts), with its certificate. */
async function startProviderRecorder(target: string, tls: { key: string; cert: string; ca: string }) {
  let source: ProviderSource = { kind: 'through' };
  let replayed = new Set<ProviderRecording['answers'][number]>();
  const server = createServer({ key: tls.key, cert: tls.cert }, (req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const call = `${req.method} ${req.url}`;
      if (source.kind === 'replay') {
        const answer = source.recording.answers.find((a) => a.call === call && !replayed.has(a));
        if (answer) {
          replayed.add(answer);
          res.writeHead(answer.status, { 'content-type': answer.type }).end(answer.body);
          return;
        }
        source.recording.misses++;
      }
      const url = new URL(req.url ?? '/', target);
      const out = request(
        url,
        { method: req.method, headers: { ...req.headers, host: url.host }, ca: tls.ca, agent: false },
        (answer) => {
          const body: Buffer[] = [];
          answer.on('data', (chunk: Buffer) => body.push(chunk));
          answer.on('end', () => {
            const recorded = {
              call,
              status: answer.statusCode ?? 502,
              body: Buffer.concat(body),
              type: String(answer.headers['content-type'] ?? 'application/json'),
            };
            if (source.kind === 'record') source.recording.answers.push(recorded);
            res.writeHead(recorded.status, { 'content-type': recorded.type }).end(recorded.body);
          });
        },
      );
      out.on('error', () => res.writeHead(502).end());
      out.end(Buffer.concat(chunks));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `https://localhost:${(server.address() as AddressInfo).port}`,
    use(next: ProviderSource) {
      source = next;
      replayed = new Set();
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/**
 * The service of the call budgets (as fixtures/call-budgets/app.ts starts it), with the stub's keys:
 * tokens it signs verify with the stub's public key, codes it hashes with the stub's code-hash key
 * check in a bundle, and secrets it seals open through the stub's KMS.
 */
export async function startFirstRequests(
  stubEndpoint: string,
  signingKeyPem: string,
): Promise<FirstRequests> {
  const dynamo = await startDynamoDbLocal({ port: await freePort() });
  const ses = await startSesLocal({ port: await freePort() });
  const table = `bench-${randomUUID()}`;
  await ensureTable(dynamo.endpoint, table);
  const certificates = await testCertificates();
  const metadata = await startClientMetadataServer(certificates);
  const providers = await startSocialProviders(certificates);
  const github = await startProviderRecorder(providers.github.url, {
    key: certificates.key,
    cert: certificates.cert,
    ca: certificates.caCert,
  });
  const settings = {
    ...socialEnv(providers),
    TABLE_NAME: table,
    ISSUER: BENCH_ISSUER,
    MAIL_FROM: 'no-reply@bench.test',
    PLATFORM_ORIGINS: BENCH_ORIGIN,
    MAX_CODE_EMAILS_PER_HOUR: '100000',
  };
  const config = loadConfig({
    ...settings,
    DYNAMODB_ENDPOINT: dynamo.endpoint,
    SES_ENDPOINT: ses.endpoint,
    LOG_LEVEL: 'error',
  });
  // Real time, which a scenario may move on (a key's use is noted once a minute).
  let offset = 0;
  const clock = {
    now: () => Date.now() + offset,
    advance: (ms: number) => {
      offset += ms;
    },
  };
  const counter = new CallCounter();
  const kms = new KMSClient({
    region: config.AWS_REGION,
    endpoint: stubEndpoint,
    credentials: { accessKeyId: 'bench', secretAccessKey: 'bench' },
  });
  const defaults = createDeps(config, {
    signer: new LocalSigner(signingKeyPem),
    codeHasher: inMemoryCodeHasher(CODE_KEY_HEX),
    sealer: new KmsSecretSealer(kms, 'alias/bench-seal'),
    clock,
    logger: createLogger('error', () => {}),
  });
  const deps: Deps = {
    ...defaults,
    signer: counter.signer(defaults.signer),
    sealer: counter.sealer(defaults.sealer),
    mailer: counter.mailer(defaults.mailer),
  };
  counter.watch(deps);
  const server = await startServer({ port: 0, deps });

  let catching = false;
  let caught: { method: string; path: string; options: RequestOptions } | undefined;
  const app: BudgetApp = {
    deps,
    clock,
    counter,
    metadata,
    providers,
    request: async (method, path, options = {}): Promise<Response> => {
      const ip = options.ip ?? freshLoopback();
      if (catching) {
        caught = { method, path, options: { ...options, ip } };
        throw new Caught('caught');
      }
      return send(server.url, method, path, { ...options, ip });
    },
    drainErrors: () => [],
    async latestCode(address) {
      const { emails } = (await (await fetch(`${ses.endpoint}/store`)).json()) as {
        emails: Array<{ destination: { to: string[] }; body: { text?: string } }>;
      };
      const text = emails.filter((email) => email.destination.to.includes(address)).at(-1)?.body.text;
      const code = text?.match(/\b[A-Z2-9]{4}-[A-Z2-9]{4}\b/)?.[0];
      if (!code) throw new Error(`no code in the inbox of ${address}`);
      return code;
    },
    close: async () => {},
  };

  return {
    env: { ...settings, SERVICE_NAME: config.SERVICE_NAME, SOCIAL_GITHUB_URL: github.url },
    dynamodbEndpoint: dynamo.endpoint,
    async prepare(route) {
      const row = rowOf(route);
      if (!row) return undefined;
      const act = await row.prepare(app);
      caught = undefined;
      catching = true;
      try {
        await act();
      } catch (error) {
        if (!(error instanceof Caught)) throw error;
      } finally {
        catching = false;
      }
      if (!caught) throw new Error(`${route.id}: the scenario "${row.scenario}" sent no request`);
      // A scenario that moved the service's clock on (a poll after its interval) waits for the real
      // one, which the bundle reads, to catch up.
      if (offset > 0) await sleep(offset);
      offset = 0;
      return { scenario: row.scenario, status: row.status, event: eventOf(route, caught) };
    },
    useProvider: (source) => github.use(source),
    async close() {
      await server.close();
      await github.close();
      await Promise.all([metadata.close(), providers.close()]);
      kms.destroy();
      await ses.stop();
      await dynamo.stop();
    },
  };
}
