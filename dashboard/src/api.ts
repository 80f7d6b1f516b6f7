/**
 * The console's one way to the service: the documented public API (docs/api.md), same origin, with
 * the platform session cookie the browser holds (HttpOnly: this code never sees a token). Every call
 * names a route of the route table by its id; the method and path come from the table at build time
 * (dashboard/build.ts), and the route's contract types the parameters, the body and the answer.
 */
import type * as z from 'zod/v4/core';
import type { routes } from '../../shared/routes.ts';

type Routes = typeof routes;
export type RouteId = keyof Routes;
type Contract<R extends RouteId> = Routes[R]['contract'];
type Output<S> = S extends z.$ZodType ? z.output<S> : never;
type Input<S> = S extends z.$ZodType ? z.input<S> : never;
type SuccessStatus = 200 | 201 | 202;
type Responses<R extends RouteId> = Contract<R>['responses'];
/** The JSON answer of a route's success status. */
export type Answer<R extends RouteId> = Output<Responses<R>[SuccessStatus & keyof Responses<R>]>;

type Part<R extends RouteId, K extends string> = K extends keyof Contract<R> ? Contract<R>[K] : undefined;
type BodyOf<R extends RouteId> = Part<R, 'body'> extends { json: infer S } ? Input<S> : undefined;

/** What one call takes: the path parameters, the query and the JSON body its route declares. */
export type CallOptions<R extends RouteId> = (Part<R, 'params'> extends z.$ZodType
  ? { params: Input<Part<R, 'params'>> }
  : { params?: undefined }) &
  (Part<R, 'query'> extends z.$ZodType ? { query?: Input<Part<R, 'query'>> } : { query?: undefined }) &
  (BodyOf<R> extends undefined ? { body?: undefined } : { body: BodyOf<R> });

declare const DASHBOARD_ROUTES: Record<RouteId, readonly [method: string, path: string]>;

/**
 * One issue of a refused request (`details.issues`, docs/api.md "Endpoints"): the dotted path of the
 * value it is about (`oauth.resources.0`), and why.
 */
export interface Issue {
  readonly path: string;
  readonly message: string;
}

const isIssue = (value: unknown): value is Issue =>
  typeof value === 'object' &&
  value !== null &&
  typeof (value as { path?: unknown }).path === 'string' &&
  typeof (value as { message?: unknown }).message === 'string';

/** An answer other than success, with the error envelope's code, message and details. */
export class ApiError extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
    readonly details: Record<string, unknown> = {},
  ) {
    super(message);
  }

  /** The body's issues (400 `VALIDATION_ERROR`), by the dotted path of their field. */
  get issues(): Issue[] {
    const issues = this.details.issues;
    return Array.isArray(issues) ? issues.filter(isIssue) : [];
  }
}

/** Listeners told when the service answers 401: the session ended (signed out elsewhere, revoked). */
const signedOutListeners = new Set<() => void>();
export const onSignedOut = (listener: () => void): (() => void) => {
  signedOutListeners.add(listener);
  return () => signedOutListeners.delete(listener);
};

/** The URL path of `route` with its parameters filled in, each one percent-encoded. */
function pathOf(route: RouteId, params: Record<string, string> = {}): string {
  const [, template] = DASHBOARD_ROUTES[route];
  return template.replace(/\{(\w+)\}/g, (_, name: string) => {
    const value = params[name];
    if (value === undefined) throw new Error(`${route} needs the path parameter ${name}`);
    return encodeURIComponent(value);
  });
}

const queryString = (query: Record<string, unknown> | undefined): string => {
  if (!query) return '';
  const search = new URLSearchParams();
  for (const [name, value] of Object.entries(query)) {
    if (value !== undefined && value !== '') search.set(name, String(value));
  }
  const text = search.toString();
  return text ? `?${text}` : '';
};

async function errorOf(response: Response): Promise<ApiError> {
  const text = await response.text().catch(() => '');
  try {
    const parsed = JSON.parse(text) as {
      error?: { code?: string; message?: string; details?: Record<string, unknown> };
      message?: string;
    };
    if (parsed.error?.code) {
      return new ApiError(
        response.status,
        parsed.error.code,
        parsed.error.message ?? parsed.error.code,
        parsed.error.details,
      );
    }
    // API Gateway's own answers (a throttle's 429, an unknown path's 404) are `{ message }`.
    if (parsed.message) return new ApiError(response.status, `HTTP_${response.status}`, parsed.message);
  } catch {
    // Not JSON: fall through.
  }
  return new ApiError(response.status, `HTTP_${response.status}`, `The service answered ${response.status}.`);
}

/** Calls `route` and answers its parsed success body; throws `ApiError` for any other answer. */
export async function call<R extends RouteId>(
  route: R,
  ...[options]: Partial<CallOptions<R>> extends CallOptions<R> ? [CallOptions<R>?] : [CallOptions<R>]
): Promise<Answer<R>> {
  const [method] = DASHBOARD_ROUTES[route];
  const opts = (options ?? {}) as {
    params?: Record<string, string>;
    query?: Record<string, unknown>;
    body?: unknown;
  };
  let response: Response;
  try {
    response = await fetch(pathOf(route, opts.params) + queryString(opts.query), {
      method,
      credentials: 'same-origin',
      headers: opts.body === undefined ? {} : { 'content-type': 'application/json' },
      ...(opts.body === undefined ? {} : { body: JSON.stringify(opts.body) }),
    });
  } catch {
    throw new ApiError(
      0,
      'NETWORK_ERROR',
      'The service could not be reached. Check your connection and try again.',
    );
  }
  if (!response.ok) {
    const error = await errorOf(response);
    if (error.status === 401 && route !== 'session') for (const listener of signedOutListeners) listener();
    throw error;
  }
  if (response.status === 204) return undefined as Answer<R>;
  return (await response.json()) as Answer<R>;
}
