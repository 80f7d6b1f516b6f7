/**
 * The API Gateway HTTP API (payload 2.0) events of the bundle bench: a route's request, as its
 * call-budget scenario sends it (bench/first-requests.ts), in the event Lambda would receive, built
 * as the local server builds it (shared/local/server.ts); and the peer's request.
 */
import type { RequestOptions } from '../fixtures/loopback-client.ts';
import type { HttpEvent } from '../shared/http/types.ts';
import type { RouteSpec } from '../shared/routes.ts';

export const BENCH_ISSUER = 'https://auth.bench.test';
export const BENCH_ORIGIN = 'https://app.bench.test';

/** A request as the loopback client sends it. */
export interface SentRequest {
  readonly method: string;
  /** The path with its query string. */
  readonly path: string;
  readonly options: RequestOptions;
}

/** The path parameters of `path` under one of the route's templates (`{name}`, greedy `{name+}`). */
function parametersOf(route: RouteSpec, path: string): Record<string, string> {
  for (const template of [route.path, ...(route.alsoAt ?? [])]) {
    const names: string[] = [];
    const source = template
      .split('/')
      .map((segment) => {
        const match = /^\{(\w+)(\+?)\}$/.exec(segment);
        if (!match?.[1]) return segment.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
        names.push(match[1]);
        return match[2] ? '(.+)' : '([^/]+)';
      })
      .join('/');
    const found = new RegExp(`^${source}$`).exec(path);
    if (found)
      return Object.fromEntries(names.map((name, i) => [name, decodeURIComponent(found[i + 1] ?? '')]));
  }
  throw new Error(`${path} is not a path of ${route.method} ${route.path}`);
}

/** The event of `sent`, a request of `route`. */
export function eventOf(route: RouteSpec, sent: SentRequest): HttpEvent {
  const [path = '/', query = ''] = sent.path.split('?');
  const { options } = sent;
  const body = options.raw ?? (options.body === undefined ? undefined : JSON.stringify(options.body));
  const headers: Record<string, string> = {
    host: '127.0.0.1',
    ...(options.body !== undefined ? { 'content-type': 'application/json' } : {}),
    ...Object.fromEntries(
      Object.entries(options.headers ?? {}).map(([name, value]) => [name.toLowerCase(), value]),
    ),
    ...(body === undefined ? {} : { 'content-length': String(Buffer.byteLength(body)) }),
  };
  const cookies = headers.cookie
    ?.split(';')
    .map((cookie) => cookie.trim())
    .filter(Boolean);
  delete headers.cookie;
  const queryStringParameters: Record<string, string> = {};
  for (const [key, value] of new URLSearchParams(query)) {
    queryStringParameters[key] =
      key in queryStringParameters ? `${queryStringParameters[key]},${value}` : value;
  }
  const pathParameters = parametersOf(route, path);
  return {
    version: '2.0',
    routeKey: `${route.method} ${route.path}`,
    rawPath: path,
    rawQueryString: query,
    headers,
    ...(cookies?.length ? { cookies } : {}),
    ...(Object.keys(queryStringParameters).length ? { queryStringParameters } : {}),
    ...(Object.keys(pathParameters).length ? { pathParameters } : {}),
    requestContext: {
      accountId: '000000000000',
      apiId: 'bench',
      domainName: 'auth.bench.test',
      domainPrefix: 'auth',
      http: {
        method: sent.method,
        path,
        protocol: 'HTTP/1.1',
        sourceIp: options.ip ?? '127.0.0.1',
        userAgent: headers['user-agent'] ?? '',
      },
      requestId: 'bench-request',
      routeKey: `${route.method} ${route.path}`,
      stage: '$default',
      time: new Date(0).toISOString(),
      timeEpoch: 0,
    },
    ...(body === undefined ? {} : { body }),
    isBase64Encoded: false,
  };
}

/** The peer's request (bench/floor/openauth-issuer.ts): its authorization server metadata, no storage read. */
export const peerEvent: HttpEvent = eventOf(
  {
    method: 'GET',
    path: '/.well-known/oauth-authorization-server',
    entry: 'bench/floor/openauth-issuer.ts',
    errorStyle: 'app',
    auth: 'none',
    access: {},
    contract: { responses: {}, errors: [] },
  },
  { method: 'GET', path: '/.well-known/oauth-authorization-server', options: {} },
);
