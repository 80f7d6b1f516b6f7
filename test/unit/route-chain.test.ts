import type { Context } from 'aws-lambda';
import { describe, expect, it } from 'vitest';
import * as z from 'zod';
import { loadConfig } from '../../shared/config.ts';
import { createDeps } from '../../shared/deps.ts';
import { fail, retryLater } from '../../shared/errors.ts';
import { http, type RouteHandler } from '../../shared/http/handler.ts';
import type { HttpEvent } from '../../shared/http/types.ts';
import { createLogger } from '../../shared/log.ts';
import type { RouteSpec } from '../../shared/routes.ts';

// The chain driven directly with API Gateway v2 events, for contract features no route of the
// table uses yet (path and query parameters, form bodies, the oauth and mcp error styles).

const logs: string[] = [];
const deps = createDeps(
  loadConfig({ TABLE_NAME: 'unused', ISSUER: 'https://auth.doorcode.test', MAIL_FROM: 'a@doorcode.test' }),
  { logger: createLogger('debug', (line) => logs.push(line)) },
);
const context = { awsRequestId: 'req-1', doorcodeDeps: deps } as unknown as Context;

function event(options: {
  method?: string;
  path?: Record<string, string>;
  query?: Record<string, string>;
  body?: string;
  contentType?: string;
}): HttpEvent {
  return {
    version: '2.0',
    routeKey: '$default',
    rawPath: '/things',
    rawQueryString: '',
    headers: options.contentType ? { 'content-type': options.contentType } : {},
    ...(options.path ? { pathParameters: options.path } : {}),
    ...(options.query ? { queryStringParameters: options.query } : {}),
    ...(options.body === undefined ? {} : { body: options.body }),
    isBase64Encoded: false,
    requestContext: { requestId: 'req-1', http: { method: options.method ?? 'POST', sourceIp: '127.0.0.1' } },
  } as unknown as HttpEvent;
}

const call = async (handler: ReturnType<typeof http>, e: HttpEvent) => {
  const result = await handler(e, context);
  return {
    status: result.statusCode,
    headers: result.headers ?? {},
    body: result.body ? JSON.parse(result.body) : undefined,
  };
};

const base = { method: 'POST', path: '/things/{id}', entry: 'none', access: {} } as const;

describe('the route chain', () => {
  const thing = {
    ...base,
    errorStyle: 'app',
    auth: 'none',
    contract: {
      params: z.object({ id: z.string().regex(/^thg_\w+$/) }),
      query: z.object({ limit: z.coerce.number().int().max(100).default(20) }),
      body: { form: z.object({ grant_type: z.literal('authorization_code'), code: z.string() }) },
      responses: { 200: z.object({ id: z.string(), limit: z.number(), code: z.string() }) },
      errors: ['invalidRequest', 'unsupportedMediaType'],
    },
  } as const satisfies RouteSpec;
  const echo: RouteHandler<typeof thing> = async ({ params, query, body }) => ({
    body: { id: params.id, limit: query.limit, code: body.code },
  });
  const handler = http(thing, echo);
  const form = 'application/x-www-form-urlencoded';
  /** A valid request to `thing`, with some parts replaced. */
  const thingEvent = (parts: Parameters<typeof event>[0] = {}) =>
    event({
      path: { id: 'thg_1' },
      body: 'grant_type=authorization_code&code=a',
      contentType: form,
      ...parts,
    });

  it('validates path, query and a form body from the contract', async () => {
    const ok = await call(
      handler,
      thingEvent({ query: { limit: '5' }, body: 'grant_type=authorization_code&code=abc' }),
    );
    expect(ok).toMatchObject({ status: 200, body: { id: 'thg_1', limit: 5, code: 'abc' } });
  });

  it('answers 400 VALIDATION_ERROR naming the bad path parameter and query', async () => {
    const badPath = await call(handler, thingEvent({ path: { id: 'x' } }));
    expect(badPath.status).toBe(400);
    expect(badPath.body.error).toMatchObject({
      code: 'VALIDATION_ERROR',
      details: { issues: [{ path: 'id' }] },
    });
    const badQuery = await call(handler, thingEvent({ query: { limit: '1000' } }));
    expect(badQuery.body.error.details.issues[0].path).toBe('limit');
  });

  it('refuses a JSON body on a form route with 415, a repeated form parameter with 400', async () => {
    const json = await call(
      handler,
      event({ path: { id: 'thg_1' }, body: '{"code":"a"}', contentType: 'application/json' }),
    );
    expect(json.status).toBe(415);
    expect(json.body.error.code).toBe('UNSUPPORTED_MEDIA_TYPE');
    const repeated = await call(handler, thingEvent({ body: 'grant_type=authorization_code&code=a&code=b' }));
    expect(repeated.status).toBe(400);
    expect(repeated.body.error.message).toBe('The parameter code is repeated');
  });

  it('strips what the response schema does not declare', async () => {
    const leaky = http(thing, async ({ params }) => ({
      body: { id: params.id, limit: 1, code: 'c', secret: 'never sent' } as never,
    }));
    const answer = await call(leaky, thingEvent());
    expect(answer.body).toEqual({ id: 'thg_1', limit: 1, code: 'c' });
  });

  it('answers 500 when the handler breaks its own contract, and logs where', async () => {
    const broken = http(thing, async () => ({ body: { id: 1 } as never }));
    const answer = await call(broken, thingEvent());
    expect(answer.status).toBe(500);
    expect(answer.body).toEqual({ error: { code: 'INTERNAL_ERROR', message: 'Internal error' } });
    expect(logs.some((line) => line.includes("does not match the route's contract at id"))).toBe(true);
  });
});

describe('error styles', () => {
  const failing = (errorStyle: 'app' | 'oauth' | 'mcp') =>
    http(
      {
        ...base,
        errorStyle,
        auth: 'none',
        contract: { responses: { 200: z.object({}) }, errors: ['invalidRequest'] },
      } as const satisfies RouteSpec,
      async () => {
        throw fail('invalidRequest', 'The redirect_uri is not registered');
      },
    );

  it('app: the platform envelope', async () => {
    const answer = await call(failing('app'), event({}));
    expect(answer).toMatchObject({
      status: 400,
      body: { error: { code: 'VALIDATION_ERROR', message: 'The redirect_uri is not registered' } },
    });
  });

  it('oauth: 401 is invalid_client (RFC 6749 §5.2)', async () => {
    const unauthenticated = http(
      {
        ...base,
        errorStyle: 'oauth',
        auth: 'none',
        contract: { responses: { 200: z.object({}) }, errors: ['unauthorized'] },
      } as const satisfies RouteSpec,
      async () => {
        throw fail('unauthorized', 'Unknown client');
      },
    );
    const answer = await call(unauthenticated, event({}));
    expect(answer).toMatchObject({ status: 401, body: { error: 'invalid_client' } });
  });

  it('html: an error page with its status and Retry-After, every value escaped, never framed', async () => {
    // Prepare
    const page = http(
      {
        ...base,
        errorStyle: 'html',
        auth: 'none',
        contract: { responses: { 200: z.object({}) }, errors: ['rateLimited'] },
      } as const satisfies RouteSpec,
      async () => {
        throw retryLater('rateLimited', () => '<script>alert(1)</script>', 30);
      },
    );

    // Act
    const result = await page(event({}), context);

    // Assess
    const html = Buffer.from(result.body ?? '', 'base64').toString('utf8');
    expect(result.statusCode).toBe(429);
    expect(result.isBase64Encoded).toBe(true);
    expect(result.headers?.['content-type']).toBe('text/html; charset=utf-8');
    expect(result.headers?.['retry-after']).toBe('30');
    expect(result.headers?.['x-frame-options']).toBe('DENY');
    expect(String(result.headers?.['content-security-policy'])).toContain("frame-ancestors 'none'");
    expect(html).toContain('&lt;script&gt;alert(1)&lt;/script&gt;');
    expect(html).not.toContain('<script>');
  });

  it('oauth: an RFC 6749 error object, not cached', async () => {
    const answer = await call(failing('oauth'), event({}));
    expect(answer.status).toBe(400);
    expect(answer.body).toEqual({
      error: 'invalid_request',
      error_description: 'The redirect_uri is not registered',
    });
    expect(answer.headers['cache-control']).toBe('no-store');
  });

  it('mcp: a JSON-RPC 2.0 error', async () => {
    const answer = await call(failing('mcp'), event({}));
    expect(answer.body).toMatchObject({ jsonrpc: '2.0', id: null, error: { code: -32600 } });
  });
});
