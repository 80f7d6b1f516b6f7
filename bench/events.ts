/**
 * One representative API Gateway v2 event per route for the first-invocation measure: a valid
 * request, so the route runs its real path (parsing, validation, its AWS calls against the stub)
 * rather than stopping at a 400. Session routes carry a token signed with the stub's KMS key.
 */
import { signJwt } from '../shared/crypto/jwt.ts';
import { LocalSigner } from '../shared/crypto/local-signer.ts';
import type { HttpEvent } from '../shared/http/types.ts';
import type { RouteSpec } from '../shared/routes.ts';

export const BENCH_ISSUER = 'https://auth.bench.test';
export const BENCH_ORIGIN = 'https://app.bench.test';

interface Request {
  readonly path?: string;
  /** API Gateway's `pathParameters` for a route with `{name}` in its path. */
  readonly params?: Record<string, string>;
  readonly headers?: Record<string, string>;
  readonly body?: unknown;
}

function requests(bearer: string): Record<string, Request> {
  const session = { authorization: `Bearer ${bearer}` };
  const email = 'someone@bench.test';
  return {
    preflight: {
      path: '/auth/code/start',
      headers: { origin: BENCH_ORIGIN, 'access-control-request-method': 'POST' },
    },
    codeStart: { body: { email } },
    codeVerify: { body: { email, code: 'ABCD-EFGH' } },
    codeApprove: { body: { email, code: 'ABCD-EFGH' } },
    codePoll: { body: { deviceCode: 'd'.repeat(64) } },
    codePeek: { headers: { 'x-api-key': `sk_${'k'.repeat(32)}` }, body: { email } },
    session: { headers: session },
    refresh: { headers: session },
    signOut: { headers: session },
    listSessions: { headers: session },
    revokeSessionById: { headers: session, body: { id: 'ses_bench' } },
    revokeOtherSessions: { headers: session },
    updateUser: { headers: session, body: { name: 'Bench' } },
    // A well-formed id the (empty) stub table does not hold: the route reads and answers 404.
    image: { path: '/images/AAAAAAAAAAAAAAAAAAAAAAAA.png', params: { id: 'AAAAAAAAAAAAAAAAAAAAAAAA.png' } },
  };
}

/** A platform session token for an account that the (empty) stub table does not hold. */
export async function benchToken(privateKeyPem: string, nowMs: number): Promise<string> {
  const iat = Math.floor(nowMs / 1000);
  return signJwt(new LocalSigner(privateKeyPem), {
    iss: BENCH_ISSUER,
    sub: 'usr_bench',
    email: 'someone@bench.test',
    sid: 'ses_bench',
    aud: 'platform',
    jti: 'jti_bench',
    iat,
    exp: iat + 3600,
  });
}

/** The event of `route` (by id; any other route gets a bare request to its path). */
export function benchEvent(route: RouteSpec & { readonly id: string }, bearer: string): HttpEvent {
  const request = requests(bearer)[route.id] ?? {};
  const path = request.path ?? route.path.replace(/\{[^}]+\}/g, 'x');
  const headers: Record<string, string> = {
    host: 'auth.bench.test',
    'user-agent': 'bench',
    ...(request.body === undefined ? {} : { 'content-type': 'application/json' }),
    ...request.headers,
  };
  return {
    version: '2.0',
    routeKey: `${route.method} ${route.path}`,
    rawPath: path,
    rawQueryString: '',
    headers,
    requestContext: {
      accountId: '000000000000',
      apiId: 'bench',
      domainName: 'auth.bench.test',
      domainPrefix: 'auth',
      http: { method: route.method, path, protocol: 'HTTP/1.1', sourceIp: '127.0.0.1', userAgent: 'bench' },
      requestId: 'bench-request',
      routeKey: `${route.method} ${route.path}`,
      stage: '$default',
      time: new Date(0).toISOString(),
      timeEpoch: 0,
    },
    ...(request.params ? { pathParameters: request.params } : {}),
    ...(request.body === undefined ? {} : { body: JSON.stringify(request.body) }),
    isBase64Encoded: false,
  };
}
