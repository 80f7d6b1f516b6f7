import type * as z from 'zod/v4/core';
import { safeParse } from 'zod/v4/core';
import { type AppError, errorBody } from '../errors.ts';
import { errorPage, htmlBody, pageHeaders } from '../html-page.ts';
import { jsonRpcCodeOf, jsonRpcIdOf } from '../mcp/json-rpc.ts';
import type { ErrorStyle, RawResponse } from '../routes.ts';
import type { HttpResult } from './types.ts';

/** Headers every answer carries. Credentials pass through these routes, so nothing is cached by default. */
const baseHeaders = {
  'content-type': 'application/json; charset=utf-8',
  'cache-control': 'no-store',
  'x-content-type-options': 'nosniff',
  // CORS headers depend on Origin, also when there is none: caches must keep the variants apart.
  vary: 'Origin',
};

/** A body that is not JSON: its bytes (base64) and media type. */
export interface RawBody {
  base64: string;
  contentType: string;
}

/** An answer before serialization: its status, a JSON or raw body, headers and cookies. */
export interface Answer {
  status: number;
  body?: unknown;
  /** Takes the place of `body`. */
  raw?: RawBody | undefined;
  headers?: Record<string, string> | undefined;
  cookies?: string[] | undefined;
}

export function toResult(answer: Answer, requestId: string): HttpResult {
  return {
    statusCode: answer.status,
    headers: {
      ...baseHeaders,
      ...(answer.raw ? { 'content-type': answer.raw.contentType } : {}),
      'x-request-id': requestId,
      ...answer.headers,
    },
    body: answer.raw ? answer.raw.base64 : answer.body === undefined ? '' : JSON.stringify(answer.body),
    // API Gateway decodes a base64 body marked so before it answers (payload format 2.0).
    ...(answer.raw ? { isBase64Encoded: true } : {}),
    ...(answer.cookies && answer.cookies.length > 0 ? { cookies: answer.cookies } : {}),
  };
}

/**
 * The answer's body as the route's contract declares it for that status: unknown fields are
 * stripped, so nothing the contract does not name leaves the service. A mismatch is our bug (500).
 */
export function contractBody(
  responses: Readonly<Record<number, z.$ZodType | RawResponse>>,
  status: number,
  reply: { body?: unknown; raw?: RawBody | undefined },
): unknown {
  const declared = responses[status];
  if (!declared) throw new Error(`The route's contract declares no ${status} answer`);
  if ('raw' in declared) {
    if (!reply.raw) throw new Error(`The route's contract declares raw bytes for ${status}`);
    return undefined;
  }
  if (reply.raw) throw new Error(`The route's contract declares a JSON ${status} answer`);
  const parsed = safeParse(declared, reply.body);
  if (!parsed.success) {
    const where = parsed.error.issues.map((issue) => issue.path.join('.') || '(body)').join(', ');
    throw new Error(`The ${status} answer does not match the route's contract at ${where}`);
  }
  return parsed.data;
}

/** RFC 6749 §5.2 error values: the catalogue's OAuth entries carry theirs as their code. */
const OAUTH_CODES = new Set([
  'invalid_request',
  'invalid_client',
  'invalid_grant',
  'invalid_target',
  'unsupported_grant_type',
  'invalid_scope',
]);

/**
 * The RFC 6749 error value of an error on an OAuth route: its own for the OAuth entries; for the
 * catalogue's generic ones (a body the chain refused, a rate limit) the nearest value.
 */
export const oauthErrorOf = (error: AppError): string =>
  OAUTH_CODES.has(error.code)
    ? error.code
    : error.status >= 500
      ? 'server_error'
      : error.status === 401
        ? 'invalid_client'
        : 'invalid_request';

/**
 * Serializes a client-visible error in the route's error style. `body`: the request's
 * body as the chain left it (parsed JSON, or the raw text when it was refused before parsing).
 */
export const errorSerializers: Record<
  ErrorStyle,
  (error: AppError, requestId: string, body?: unknown) => HttpResult
> = {
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
  html: (error, requestId) =>
    toResult(
      {
        status: error.status,
        raw: htmlBody(errorPage(error)),
        headers: { ...pageHeaders({ noForm: true }), ...error.headers },
      },
      requestId,
    ),
  mcp: (error, requestId, body) =>
    toResult(
      {
        status: error.status,
        body: {
          jsonrpc: '2.0',
          id: jsonRpcIdOf(body),
          error: { code: jsonRpcCodeOf(error), message: error.message, data: errorBody(error).error },
        },
        headers: error.headers,
      },
      requestId,
    ),
};
