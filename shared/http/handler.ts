import middy from '@middy/core';
import httpJsonBodyParser from '@middy/http-json-body-parser';
import type * as z from 'zod/v4/core';
import { safeParse } from 'zod/v4/core';
import { authorize } from '#authorize';
import { callerFor, noteKeyUse } from '#callers';
import { type Deps, forRequest, getDeps } from '../deps.ts';
import { fail, toAppError } from '../errors.ts';
import { describeError, type Logger } from '../log.ts';
import { RequestMetrics } from '../metrics/metrics.ts';
import type { RawResponse, RouteSpec } from '../routes.ts';
import type { CallerByMode } from '../sessions/caller.ts';
import type { AuditRequest } from '../tenancy/audit.ts';
import type { GrantOf } from '../tenancy/authorize.ts';
import type { Action } from '../tenancy/permissions.ts';
import { invalidRequest } from '../validation.ts';
import { auditRequestOf } from './audit-request.ts';
import { bodyText, parseForm } from './body.ts';
import { corsHeaders } from './cors.ts';
import { credentialsOf } from './credentials.ts';
import { contractBody, errorSerializers, type RawBody, toResult } from './respond.ts';
import type { HttpEvent, HttpResult, LambdaContext } from './types.ts';

type Contract<R extends RouteSpec> = R['contract'];
type Parsed<S> = S extends z.$ZodType ? z.output<S> : undefined;
type BodyOf<R extends RouteSpec> = Contract<R>['body'] extends { json: infer S }
  ? Parsed<S>
  : Contract<R>['body'] extends { form: infer S }
    ? Parsed<S>
    : undefined;
type Responses<R extends RouteSpec> = Contract<R>['responses'];

/** The body part of an answer: raw bytes where the contract says so, else a body of its schema. */
type BodyPart<Declared> = Declared extends RawResponse
  ? { raw: RawBody }
  : Declared extends z.$ZodType
    ? undefined extends z.input<Declared>
      ? { body?: z.input<Declared> }
      : { body: z.input<Declared> }
    : never;

/** One declared answer: its status (200 may be left out), its body, headers, cookies. */
type ReplyWith<S extends number, Declared> = (S extends 200 ? { status?: S } : { status: S }) &
  BodyPart<Declared> & {
    headers?: Record<string, string>;
    cookies?: string[];
  };

/** What a route's handler returns: one of the answers its contract declares. */
type ReplyOf<R extends RouteSpec> = {
  [S in keyof Responses<R> & number]: ReplyWith<S, Responses<R>[S]>;
}[keyof Responses<R> & number];

/** What the permission matrix granted a management route (shared/tenancy/authorize.ts); else nothing. */
type GrantFor<R extends RouteSpec> = R['permission'] extends { action: infer A extends Action }
  ? GrantOf<A>
  : undefined;

/** A route that records audit entries gets the request's actor; any other route nothing. */
type AuditFor<R extends RouteSpec> = R['audit'] extends readonly unknown[]
  ? GrantFor<R> extends undefined
    ? undefined
    : AuditRequest
  : undefined;

/** What a route's handler receives: the typed caller and the validated request. No raw event. */
interface HttpRequest<R extends RouteSpec> {
  readonly caller: CallerByMode[R['auth']];
  /** The target the route's `permission` allowed the caller to act on (management routes). */
  readonly grant: GrantFor<R>;
  /** Who acts and from where, for the audit entry of a route that declares `audit`. */
  readonly audit: AuditFor<R>;
  readonly params: Parsed<Contract<R>['params']>;
  readonly query: Parsed<Contract<R>['query']>;
  /** The query string as sent: where a parameter sent twice can be told (RFC 6749 §3.1). */
  readonly rawQuery: string;
  /** The request headers the contract names (credentials are read by the chain, not here). */
  readonly headers: Parsed<Contract<R>['headers']>;
  readonly body: BodyOf<R>;
  /** This request's dependencies; `deps.logger` carries the request id and route. */
  readonly deps: Deps;
  readonly log: Logger;
  readonly requestId: string;
  /** The client as API Gateway saw it: the TCP peer (never a forwarded header: docs/security.md, Rate limits). */
  readonly client: {
    readonly ip: string;
    readonly userAgent: string;
    readonly origin: string | undefined;
    /** `Sec-Fetch-Site` (Fetch Metadata): how the page that sent the request relates to this service. */
    readonly fetchSite: string | undefined;
  };
  /** Milliseconds before the function times out (Lambda's context; the local server's deadline). */
  readonly remainingMs: () => number;
  /**
   * The request's cookies as API Gateway gives them (`name=value`). Only for a cookie of the route's
   * own that is no credential (the recent accounts list): the chain reads the session cookies.
   */
  readonly cookies: readonly string[];
}

interface Internal extends Record<string, unknown> {
  deps: Deps;
  log: Logger;
  metrics: RequestMetrics;
  started: number;
  requestId: string;
}

/** Middy hands the route only `(event, context)`: the request's own state rides on the context. */
interface ChainContext extends LambdaContext {
  doorcodeRequest: Internal;
}

/** Logged when a route answers an error its contract does not list (the tests fail on it). */
export const UNDECLARED_ERROR = 'error not declared in the route contract';

// `disableContentTypeCheck` is a runtime option of @middy/http-json-body-parser 6 that its types omit.
const jsonParserOptions = { disableContentTypeCheck: true, disableContentTypeError: false };

/**
 * No early timeout answer: it would race a handler that may still commit. The sign-in
 * domain refuses to commit near the deadline instead (shared/sign-in/complete.ts).
 */
const noEarly = { timeoutEarlyInMillis: 0 };

const requestIdOf = (event: HttpEvent, context: LambdaContext): string =>
  event.requestContext?.requestId ?? context.awsRequestId;

/**
 * Wraps a route's logic in the shared middy chain, driven by the route's table entry:
 * request id and structured log line; body size, presence, media type and parsing; validation of
 * path, query and body against the contract into 400 VALIDATION_ERROR; the caller resolved from
 * the auth mode (401 for what the mode refuses); the answer built from the declared response
 * schema; CORS on every answer; errors serialized in the route's style, anything unexpected
 * logged and answered as 500 INTERNAL_ERROR.
 */
/** A route's logic. `NoInfer`: the route alone fixes the types, so literal answers stay literal. */
export type RouteHandler<R extends RouteSpec> = (request: HttpRequest<R>) => Promise<ReplyOf<R>>;

export function http<R extends RouteSpec>(route: R, run: NoInfer<RouteHandler<R>>) {
  const declared = new Set<string>(route.contract.errors);
  const chain = middy<HttpEvent, HttpResult, Error, LambdaContext, Internal>(noEarly).use({
    before: (request) => {
      const requestId = requestIdOf(request.event, request.context);
      // This request's declared ports, and a logger with its request id, route and cold-start flag.
      const metrics = new RequestMetrics();
      const deps = forRequest(depsFor(request.context, route), route, requestId, metrics);
      request.internal.requestId = requestId;
      request.internal.metrics = metrics;
      request.internal.deps = deps;
      request.internal.log = deps.logger;
      request.internal.started = performance.now();
      Object.assign(request.context, { doorcodeRequest: request.internal });
    },
    after: (request) => {
      withCors(request.internal.deps, request.event, request.response);
      logLine(request.internal, request.response);
      writeMetrics(request.internal);
    },
    onError: (request) => {
      const requestId = requestIdOf(request.event, request.context);
      const known = toAppError(request.error);
      request.response = errorSerializers[route.errorStyle](
        known ?? fail('internal', 'Internal error'),
        requestId,
        request.event.body,
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
      else if (!declared.has(known.kind)) {
        // The contract is what the API description and the SDK are made from: it must list this.
        request.internal.log.log('error', UNDECLARED_ERROR, { kind: known.kind });
      }
      withCors(deps, request.event, request.response);
      logLine(request.internal, request.response);
      writeMetrics(request.internal);
    },
  });

  const bodySpec = route.contract.body;
  if (bodySpec) {
    chain.use({
      before: (request) => {
        const text = bodyText(request.event, bodySpec);
        // Parsed into `event.body`, as @middy/http-json-body-parser does for JSON.
        const body = 'form' in bodySpec ? parseForm(text) : text;
        Object.assign(request.event, { body, isBase64Encoded: false });
      },
    });
    // bodyText decided the media type (case-insensitively, RFC 9110 §8.3.1): the parser only parses.
    if ('json' in bodySpec) chain.use(httpJsonBodyParser(jsonParserOptions));
  }

  return chain.handler((event, context) =>
    respond(route, run, event, (context as ChainContext).doorcodeRequest, context),
  );
}

/** Validates the request, resolves the caller, runs the route and builds its declared answer. */
async function respond<R extends RouteSpec>(
  route: R,
  run: RouteHandler<R>,
  event: HttpEvent,
  internal: Internal,
  context: LambdaContext,
): Promise<HttpResult> {
  const { contract } = route;
  const params = validate('path', contract.params, event.pathParameters ?? {});
  const query = validate('query', contract.query, event.queryStringParameters ?? {});
  const headers = validate('headers', contract.headers, event.headers ?? {});
  const bodySchema = contract.body && ('json' in contract.body ? contract.body.json : contract.body.form);
  const body = validate('body', bodySchema, event.body);
  const { deps, log, requestId } = internal;
  const credentials = credentialsOf(event);
  const caller = await callerFor(deps, route.auth, credentials, {
    changesState: route.method !== 'GET',
    startsImpersonation: route.permission?.action === 'impersonation.start',
  });
  const grant = route.permission
    ? await authorize(deps, caller as CallerByMode['manage'], route.permission, { params, body })
    : undefined;
  const client = {
    ip: event.requestContext?.http?.sourceIp ?? '0.0.0.0',
    userAgent: event.headers?.['user-agent'] ?? '',
    origin: event.headers?.origin,
    fetchSite: event.headers?.['sec-fetch-site'],
  };
  const audit =
    route.audit && grant
      ? auditRequestOf(grant, caller as CallerByMode['manage'], { ...client, apiKey: credentials.apiKey })
      : undefined;
  // Only an accepted key counts as used (a refused one is not), and only where the route may write.
  if (route.access.table === 'readwrite') {
    await noteKeyUse(deps, caller, {
      origin: credentials.origin,
      ip: client.ip,
      userAgent: client.userAgent,
    });
  }
  const reply = (await run({
    caller: caller as CallerByMode[R['auth']],
    grant: grant as GrantFor<R>,
    audit: audit as AuditFor<R>,
    params: params as HttpRequest<R>['params'],
    query: query as HttpRequest<R>['query'],
    rawQuery: event.rawQueryString ?? '',
    headers: headers as HttpRequest<R>['headers'],
    body: body as BodyOf<R>,
    deps,
    log,
    requestId,
    client,
    remainingMs: () => context.getRemainingTimeInMillis(),
    cookies: event.cookies ?? [],
  })) as {
    status?: number;
    body?: unknown;
    raw?: RawBody;
    headers?: Record<string, string>;
    cookies?: string[];
  };
  const status = reply.status ?? 200;
  return toResult(
    {
      status,
      body: contractBody(contract.responses, status, reply),
      raw: reply.raw,
      headers: reply.headers,
      cookies: reply.cookies,
    },
    requestId,
  );
}

/** Parses one part of the request with its contract schema, or answers 400 naming every problem. */
function validate(
  part: 'path' | 'query' | 'headers' | 'body',
  schema: z.$ZodType | undefined,
  value: unknown,
): unknown {
  if (!schema) return undefined;
  const parsed = safeParse(schema, value);
  if (parsed.success) return parsed.data;
  throw invalidRequest(part, parsed.error.issues);
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

/** The request's counts, once, as one EMF line (shared/metrics/metrics.ts); nothing if none. */
function writeMetrics(internal: Partial<Internal>): void {
  const { deps, log, metrics } = internal;
  const document = deps && metrics?.flush(deps.config.SERVICE_NAME, deps.clock.now());
  if (document) log?.always('metrics', document);
}
