import middy from '@middy/core';
import httpJsonBodyParser from '@middy/http-json-body-parser';
import type { z } from 'zod';
import { type Deps, forRequest, getDeps } from '../deps.ts';
import { AppError, badRequest } from '../errors.ts';
import { describeError, type Logger } from '../log.ts';
import type { RouteSpec } from '../routes.ts';
import { corsHeaders } from './cors.ts';
import { appErrorResult, toAppError, toResult } from './respond.ts';
import type { HttpEvent, HttpResult, LambdaContext, Reply } from './types.ts';

/** Largest accepted JSON body: a 716800-char image (SPEC §8) plus room for the envelope. */
export const MAX_BODY_BYTES = 768 * 1024;

/** What a route handler receives. */
export interface HttpRequest<Body> {
  readonly event: HttpEvent;
  readonly body: Body;
  readonly deps: Deps;
  readonly log: Logger;
  readonly requestId: string;
  /** API Gateway's source IP: the TCP peer, never a forwarded header (DESIGN §3). */
  readonly sourceIp: string;
  readonly headers: Readonly<Record<string, string | undefined>>;
}

interface Internal extends Record<string, unknown> {
  deps: Deps;
  log: Logger;
  started: number;
}

type Schema = z.ZodType | undefined;
type BodyOf<S extends Schema> = S extends z.ZodType ? z.output<S> : undefined;

/**
 * Wraps a route's logic in the shared middy chain: request id and structured log line,
 * body size check, JSON parsing, zod validation into 400 VALIDATION_ERROR, and the error
 * serializer (client errors exposed, anything else logged and answered as 500 INTERNAL_ERROR).
 */
export function http<S extends Schema = undefined>(
  route: RouteSpec,
  schema: S,
  run: (request: HttpRequest<BodyOf<S>>) => Promise<Reply>,
) {
  const core = middy<HttpEvent, HttpResult, Error, LambdaContext, Internal>().use({
    before: (request) => {
      const deps = depsFor(request.context, route);
      const requestId = request.event.requestContext?.requestId ?? request.context.awsRequestId;
      request.internal.deps = deps;
      request.internal.started = performance.now();
      request.internal.log = forRequest(deps, route, requestId).logger;
    },
    after: (request) => {
      withCors(request.internal.deps, request.event, request.response);
      logLine(request.internal, request.response);
    },
    onError: (request) => {
      const requestId = request.event.requestContext?.requestId ?? request.context.awsRequestId;
      const known = toAppError(request.error);
      request.response = appErrorResult(
        known ?? new AppError(500, 'INTERNAL_ERROR', 'Internal error'),
        requestId,
      );
      // Without dependencies (a bad configuration) there is no logger and no CORS config: the
      // error, which names the setting, still reaches the function's log.
      const deps = request.internal.deps;
      if (!deps) {
        process.stderr.write(
          `${JSON.stringify({ level: 'error', message: 'no dependencies', requestId, ...describeError(request.error) })}\n`,
        );
        return;
      }
      if (!known) request.internal.log.log('error', 'unhandled error', describeError(request.error));
      withCors(deps, request.event, request.response);
      logLine(request.internal, request.response);
    },
  });

  if (route.body === 'json') {
    core.use({
      before: (request) => {
        const { body, isBase64Encoded } = request.event;
        const bytes =
          body === undefined
            ? 0
            : isBase64Encoded
              ? Math.floor((body.length * 3) / 4)
              : Buffer.byteLength(body);
        if (bytes > MAX_BODY_BYTES) {
          throw new AppError(413, 'PAYLOAD_TOO_LARGE', `The body exceeds ${MAX_BODY_BYTES} bytes`);
        }
        if (body === undefined || body === '') throw badRequest('A JSON body is required');
      },
    });
    core.use(httpJsonBodyParser());
  }

  return core.handler(async (event, context) => {
    const requestId = event.requestContext?.requestId ?? context.awsRequestId;
    const deps = forRequest(depsFor(context, route), route, requestId);
    let body: unknown;
    if (schema) {
      const parsed = schema.safeParse(event.body);
      if (!parsed.success) {
        throw badRequest('The request body is not valid', {
          issues: parsed.error.issues.map((issue) => ({
            path: issue.path.join('.'),
            message: issue.message,
          })),
        });
      }
      body = parsed.data;
    }
    const reply = await run({
      event,
      body: body as BodyOf<S>,
      deps,
      log: deps.logger,
      requestId,
      sourceIp: event.requestContext?.http?.sourceIp ?? '0.0.0.0',
      headers: event.headers ?? {},
    });
    return toResult(reply, requestId);
  });
}

/** Every answer, errors included, carries the CORS headers for the request's origin. */
function withCors(deps: Deps, event: HttpEvent, response: HttpResult | null | undefined): void {
  if (!response || typeof response !== 'object') return;
  response.headers = { ...corsHeaders(deps.config, event.headers?.origin), ...response.headers };
}

/**
 * The local server passes its own dependencies in the invocation context, so several servers can
 * share one process (tests); on Lambda the context has none and the container's are built from env.
 */
export interface LocalContext extends LambdaContext {
  doorcodeDeps?: Deps;
}
const depsFor = (context: LambdaContext, route: RouteSpec): Deps =>
  (context as LocalContext).doorcodeDeps ?? getDeps(route);

function logLine(internal: Partial<Internal>, response: HttpResult | null | undefined): void {
  const status = typeof response === 'object' && response ? response.statusCode : undefined;
  internal.log?.log(status !== undefined && status >= 500 ? 'error' : 'info', 'request', {
    status,
    durationMs: internal.started === undefined ? undefined : Math.round(performance.now() - internal.started),
  });
}
