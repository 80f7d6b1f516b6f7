import { AppError, errorBody, fail } from '../errors.ts';
import type { HttpResult, Reply } from './types.ts';

/** Headers every answer carries. Credentials pass through these routes, so nothing is cached by default. */
const baseHeaders = {
  'content-type': 'application/json; charset=utf-8',
  'cache-control': 'no-store',
  'x-content-type-options': 'nosniff',
  // CORS headers depend on Origin, also when there is none: caches must keep the variants apart.
  vary: 'Origin',
};

export function toResult(reply: Reply, requestId: string): HttpResult {
  return {
    statusCode: reply.status ?? 200,
    headers: {
      ...baseHeaders,
      ...(reply.raw ? { 'content-type': reply.raw.contentType } : {}),
      'x-request-id': requestId,
      ...reply.headers,
    },
    body: reply.raw ? reply.raw.base64 : reply.body === undefined ? '' : JSON.stringify(reply.body),
    // API Gateway decodes a base64 body marked so before it answers (payload format 2.0).
    ...(reply.raw ? { isBase64Encoded: true } : {}),
    ...(reply.cookies && reply.cookies.length > 0 ? { cookies: reply.cookies } : {}),
  };
}

/** The platform error envelope (SPEC §7). */
export function appErrorResult(error: AppError, requestId: string): HttpResult {
  return toResult({ status: error.status, body: errorBody(error), headers: error.headers }, requestId);
}

/** Errors raised by middy middlewares (`createError`) carry `statusCode` and `expose`. */
interface HttpLikeError {
  statusCode: number;
  message: string;
  expose?: boolean;
}

const isHttpLikeError = (error: unknown): error is HttpLikeError =>
  typeof error === 'object' && error !== null && typeof (error as HttpLikeError).statusCode === 'number';

/** Maps any thrown value to an AppError, or null when it is unexpected (answered as 500). */
export function toAppError(error: unknown): AppError | null {
  if (error instanceof AppError) return error;
  if (isHttpLikeError(error) && error.statusCode < 500) {
    // @middy/http-json-body-parser uses 415 both for a wrong content type and for bad JSON.
    if (/malformed JSON/i.test(error.message)) {
      return fail('invalidRequest', 'The request body is not valid JSON');
    }
    if (error.statusCode === 415) {
      return fail('unsupportedMediaType', 'Send the body as application/json');
    }
    return fail('invalidRequest', 'The request is not valid');
  }
  return null;
}
