import type * as z from 'zod';
import { AppError, errorBody, fail } from '../errors.ts';
import type { ErrorStyle } from '../routes.ts';
import type { HttpResult } from './types.ts';

/** Headers every answer carries. Credentials pass through these routes, so nothing is cached by default. */
const baseHeaders = {
  'content-type': 'application/json; charset=utf-8',
  'cache-control': 'no-store',
  'x-content-type-options': 'nosniff',
  // CORS headers depend on Origin, also when there is none: caches must keep the variants apart.
  vary: 'Origin',
};

/** An answer before serialization: its status, a JSON body, headers and cookies. */
export interface Answer {
  status: number;
  body?: unknown;
  headers?: Record<string, string> | undefined;
  cookies?: string[] | undefined;
}

export function toResult(answer: Answer, requestId: string): HttpResult {
  return {
    statusCode: answer.status,
    headers: { ...baseHeaders, 'x-request-id': requestId, ...answer.headers },
    body: answer.body === undefined ? '' : JSON.stringify(answer.body),
    ...(answer.cookies && answer.cookies.length > 0 ? { cookies: answer.cookies } : {}),
  };
}

/**
 * The answer's body as the route's contract declares it for that status: unknown fields are
 * stripped, so nothing the contract does not name leaves the service. A mismatch is our bug (500).
 */
export function contractBody(
  responses: Readonly<Record<number, z.ZodType>>,
  status: number,
  body: unknown,
): unknown {
  const schema = responses[status];
  if (!schema) throw new Error(`The route's contract declares no ${status} answer`);
  const parsed = schema.safeParse(body);
  if (!parsed.success) {
    const where = parsed.error.issues.map((issue) => issue.path.join('.') || '(body)').join(', ');
    throw new Error(`The ${status} answer does not match the route's contract at ${where}`);
  }
  return parsed.data;
}

/** RFC 6749 §5.2 error values for the catalogue's statuses; `oauth` routes name theirs in the catalogue. */
const oauthErrorOf = (error: AppError): string =>
  error.status >= 500
    ? error.status === 503
      ? 'temporarily_unavailable'
      : 'server_error'
    : 'invalid_request';

/** JSON-RPC 2.0 §5.1: invalid request, or internal error. */
const jsonRpcCodeOf = (error: AppError): number => (error.status >= 500 ? -32603 : -32600);

/** Serializes a client-visible error in the route's error style (DESIGN §2). */
export const errorSerializers: Record<ErrorStyle, (error: AppError, requestId: string) => HttpResult> = {
  app: (error, requestId) =>
    toResult({ status: error.status, body: errorBody(error), headers: error.headers }, requestId),
  oauth: (error, requestId) =>
    toResult(
      {
        status: error.status,
        body: { error: oauthErrorOf(error), error_description: error.message },
        headers: error.headers,
      },
      requestId,
    ),
  mcp: (error, requestId) =>
    toResult(
      {
        status: error.status,
        body: {
          jsonrpc: '2.0',
          id: null,
          error: { code: jsonRpcCodeOf(error), message: error.message, data: errorBody(error).error },
        },
        headers: error.headers,
      },
      requestId,
    ),
};

/** Errors raised by middy middlewares (`createError`) carry `statusCode`. */
const isHttpLikeError = (error: unknown): error is { statusCode: number } =>
  typeof error === 'object' &&
  error !== null &&
  typeof (error as { statusCode?: unknown }).statusCode === 'number';

/**
 * Maps a thrown value to a client-visible error, or null when it is unexpected (answered as 500).
 * The chain checks presence and media type of a body before @middy/http-json-body-parser runs, so
 * the parser's only client error left is malformed JSON: decided by where it came from, not by its text.
 */
export function toAppError(error: unknown): AppError | null {
  if (error instanceof AppError) return error;
  if (isHttpLikeError(error) && error.statusCode < 500) {
    return fail('invalidRequest', 'The request body is not valid JSON');
  }
  return null;
}
