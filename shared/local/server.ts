import { randomUUID } from 'node:crypto';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import type { Deps } from '../deps.ts';
import type { LocalContext } from '../http/handler.ts';
import type { HttpEvent, HttpResult, LambdaContext } from '../http/types.ts';
import { FUNCTION_TIMEOUT_SECONDS, type RouteSpec, routeList } from '../routes.ts';
import { createDb } from '../store/db.ts';
import { aggregate, ofCountedPartition } from '../tenancy/statistics-stream.ts';
import { invocationSlots } from './invocation-slots.ts';
import { isLoopbackHost } from './loopback-host.ts';
import { splitTarget } from './request-target.ts';
import { startStreamReader } from './stream-reader.ts';

type Handler = (event: HttpEvent, context: LambdaContext) => Promise<HttpResult>;

const repoRoot = join(dirname(fileURLToPath(import.meta.url)), '..', '..');
/** API Gateway's own payload limit for HTTP APIs. */
const GATEWAY_MAX_BODY = 10 * 1024 * 1024;
/**
 * Handlers running at once, like as many warm Lambda containers: as many as the largest parallel
 * burst of the tests (20), so races stay races, and few enough that, with DynamoDB Local serving
 * about one command at a time, each invocation of a burst ends well within its timeout.
 */
const LOCAL_CONCURRENCY = 20;

interface CompiledRoute {
  route: RouteSpec;
  pattern: RegExp;
  params: string[];
  /** The route's handler module, imported at the route's first request and kept. */
  handler: () => Promise<Handler>;
}

function compile(path: string): { pattern: RegExp; params: string[] } {
  const params: string[] = [];
  const source = path
    .split('/')
    .map((segment) => {
      const match = /^\{(\w+)(\+?)\}$/.exec(segment);
      if (!match?.[1]) return segment.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
      params.push(match[1]);
      // `{name+}` is API Gateway's greedy parameter: the rest of the path.
      return match[2] ? '(.+)' : '([^/]+)';
    })
    .join('/');
  return { pattern: new RegExp(`^${source}$`), params };
}

/**
 * Every route, its handler module (the same module its Lambda bundle is built from) imported when
 * the route is first asked for, as Lambda loads a function at its first invocation: a server that
 * serves a few routes (a test file) never loads the others.
 */
function loadRoutes(): CompiledRoute[] {
  return routeList.flatMap((route) => {
    let loaded: Promise<Handler> | undefined;
    const handler = () => {
      loaded ??= import(pathToFileURL(join(repoRoot, route.entry)).href).then(
        (module: { handler: Handler }) => module.handler,
      );
      return loaded;
    };
    // One handler for every path the route answers (its `alsoAt` too), as one function is in the stack.
    return [route.path, ...(route.alsoAt ?? [])].map((path) => ({ route, ...compile(path), handler }));
  });
}

/** Path parameters, percent-decoded; null for a malformed escape (API Gateway answers 400 too). */
function decodeParameters(names: string[], match: RegExpExecArray): Record<string, string> | null {
  try {
    return Object.fromEntries(names.map((name, i) => [name, decodeURIComponent(match[i + 1] ?? '')]));
  } catch {
    return null;
  }
}

function readBody(req: IncomingMessage): Promise<Buffer | null> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    req.on('data', (chunk: Buffer) => {
      size += chunk.length;
      if (size <= GATEWAY_MAX_BODY) chunks.push(chunk);
    });
    req.on('end', () => resolve(size > GATEWAY_MAX_BODY ? null : Buffer.concat(chunks)));
    req.on('error', reject);
  });
}

/** Builds the API Gateway HTTP API (payload 2.0) event that Lambda would receive. */
function toEvent(
  req: IncomingMessage,
  target: { path: string; query: string },
  body: Buffer,
  pathParameters: Record<string, string>,
): HttpEvent {
  const headers: Record<string, string> = {};
  for (const [name, value] of Object.entries(req.headers)) {
    if (value !== undefined && name !== 'cookie')
      headers[name] = Array.isArray(value) ? value.join(',') : value;
  }
  const cookies = req.headers.cookie
    ?.split(';')
    .map((cookie) => cookie.trim())
    .filter(Boolean);
  const query: Record<string, string> = {};
  for (const [key, value] of new URLSearchParams(target.query)) {
    query[key] = key in query ? `${query[key]},${value}` : value;
  }
  const now = Date.now();
  return {
    version: '2.0',
    routeKey: '$default',
    rawPath: target.path,
    rawQueryString: target.query,
    headers,
    ...(cookies?.length ? { cookies } : {}),
    ...(Object.keys(query).length ? { queryStringParameters: query } : {}),
    ...(Object.keys(pathParameters).length ? { pathParameters } : {}),
    requestContext: {
      accountId: 'local',
      apiId: 'local',
      domainName: headers.host ?? 'localhost',
      domainPrefix: 'local',
      requestId: randomUUID(),
      routeKey: '$default',
      stage: '$default',
      time: new Date(now).toUTCString(),
      timeEpoch: now,
      http: {
        method: req.method ?? 'GET',
        path: target.path,
        protocol: `HTTP/${req.httpVersion}`,
        sourceIp: (req.socket.remoteAddress ?? '0.0.0.0').replace(/^::ffff:/, ''),
        userAgent: headers['user-agent'] ?? '',
      },
    },
    ...(body.length > 0 ? { body: body.toString('utf8') } : {}),
    isBase64Encoded: false,
  };
}

/**
 * The invocation's context. Its remaining time counts down from `timeoutMs` (the function timeout
 * the stack gives Lambda, unless a test gives a shorter one), from the moment the handler is invoked,
 * as Lambda's does (a constant 10 s here hid every timeout from the chain and the domain).
 */
export function lambdaContext(
  requestId: string,
  deps: Deps | undefined,
  timeoutMs = FUNCTION_TIMEOUT_SECONDS * 1000,
): LocalContext {
  const deadline = performance.now() + timeoutMs;
  return {
    ...(deps ? { doorcodeDeps: deps } : {}),
    awsRequestId: requestId,
    functionName: 'local',
    functionVersion: '$LATEST',
    invokedFunctionArn: 'arn:aws:lambda:local:000000000000:function:local',
    memoryLimitInMB: '256',
    logGroupName: 'local',
    logStreamName: 'local',
    callbackWaitsForEmptyEventLoop: false,
    getRemainingTimeInMillis: () => Math.max(0, Math.round(deadline - performance.now())),
    done: () => undefined,
    fail: () => undefined,
    succeed: () => undefined,
  };
}

function send(res: ServerResponse, result: HttpResult): void {
  const headers: Record<string, string | string[]> = { ...(result.headers as Record<string, string>) };
  if (result.cookies?.length) headers['set-cookie'] = result.cookies;
  res.writeHead(result.statusCode ?? 200, headers);
  res.end(result.isBase64Encoded && result.body ? Buffer.from(result.body, 'base64') : (result.body ?? ''));
}

const gatewayError = (res: ServerResponse, status: number, message: string) =>
  send(res, {
    statusCode: status,
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ message }),
  });

export interface LocalServer {
  url: string;
  server: Server;
  /**
   * Resolves once the statistics aggregator has counted every change made before the call
   * (shared/local/stream-reader.ts); at once without `deps` (no table of its own to read); rejects
   * on a server started to count nothing (`streamIntervalMs: false`).
   */
  statisticsCaughtUp(): Promise<void>;
  close(): Promise<void>;
}

/** How often the local aggregator reads the stream: about as often as Lambda's batching window. */
const STREAM_INTERVAL_MS = 500;

/**
 * Serves every route of the table like API Gateway would: one event per request, handed to the
 * route's exported Lambda handler. Unknown routes answer as API Gateway does (404 `{ message }`).
 */
export async function startServer({
  port,
  host = '127.0.0.1',
  deps,
  streamIntervalMs = STREAM_INTERVAL_MS,
  functionTimeoutMs,
}: {
  port: number;
  host?: string;
  /**
   * How often the statistics aggregator reads the stream; 0: only when `statisticsCaughtUp` asks;
   * false: never (a table without a stream, whose statistics nobody counts).
   */
  streamIntervalMs?: number | false;
  /**
   * The function timeout each invocation's remaining time counts down from, read as it starts: the
   * stack's by default. A test of what a request does near its timeout gives a shorter one to the
   * request it slows down, rather than waiting out the stack's.
   */
  functionTimeoutMs?: number | (() => number);
  /** This server's dependencies; without them, handlers build the process's from the environment. */
  deps?: Deps;
}): Promise<LocalServer> {
  const endpoint = deps?.config.DYNAMODB_ENDPOINT;
  const aggregatorDeps =
    deps && streamIntervalMs !== false
      ? { ...deps, db: createDb({ table: deps.db.table, region: deps.config.AWS_REGION, endpoint }) }
      : undefined;
  const aggregator =
    deps && aggregatorDeps && endpoint && streamIntervalMs !== false
      ? startStreamReader({
          endpoint,
          table: deps.db.table,
          // Its own client, as its own function has on AWS: what a request's client sees (a test's
          // recording, a fault) is the request's alone.
          // Only the partitions the stack's event filter lets through (lib/statistics-aggregator.ts).
          deliver: async (event) => {
            const Records = event.Records.filter(ofCountedPartition);
            if (Records.length > 0) await aggregate(aggregatorDeps, { Records });
          },
          intervalMs: streamIntervalMs,
          onError: (error) =>
            deps.logger.log('error', 'statistics aggregation failed; retried', { error: String(error) }),
        })
      : undefined;
  const compiled = loadRoutes();
  const slots = invocationSlots(LOCAL_CONCURRENCY);
  let boundPort = port;
  const server = createServer(async (req, res) => {
    try {
      // DNS rebinding: a page may reach loopback under a name of its own (shared/local/loopback-host.ts).
      if (!isLoopbackHost(req.headers.host, boundPort)) return gatewayError(res, 421, 'Misdirected Request');
      const target = splitTarget(req.url ?? '/');
      const body = await readBody(req);
      if (body === null) return gatewayError(res, 413, 'Request Entity Too Large');
      for (const { route, pattern, params, handler } of compiled) {
        const match = pattern.exec(target.path);
        if (!match || route.method !== req.method) continue;
        const pathParameters = decodeParameters(params, match);
        if (!pathParameters) return gatewayError(res, 400, 'Bad Request');
        const event = toEvent(req, target, body, pathParameters);
        const serve = await handler();
        const result = await slots(() =>
          serve(
            event,
            lambdaContext(
              event.requestContext.requestId,
              deps,
              typeof functionTimeoutMs === 'function' ? functionTimeoutMs() : functionTimeoutMs,
            ),
          ),
        );
        return send(res, result);
      }
      return gatewayError(res, 404, 'Not Found');
    } catch {
      // The handler chain answers every error itself; reaching here is a bug in this server.
      return gatewayError(res, 500, 'Internal Server Error');
    }
  });
  server.keepAliveTimeout = 5_000;
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, host, () => resolve());
  });
  const address = server.address();
  const actualPort = typeof address === 'object' && address ? address.port : port;
  boundPort = actualPort;
  return {
    url: `http://${host}:${actualPort}`,
    server,
    statisticsCaughtUp: () =>
      streamIntervalMs === false
        ? Promise.reject(
            new Error('this server counts no statistics: it was started with streamIntervalMs false'),
          )
        : (aggregator?.caughtUp() ?? Promise.resolve()),
    close: async () => {
      await new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      });
      await aggregator?.close();
      aggregatorDeps?.db.client.destroy();
    },
  };
}
