/** Stable error codes of the platform envelope (SPEC §7, DESIGN §5). Tests assert these. */
export type ErrorCode =
  | 'VALIDATION_ERROR'
  | 'EXPIRED'
  | 'FORBIDDEN'
  | 'UNAUTHORIZED'
  | 'NOT_FOUND'
  | 'METHOD_NOT_ALLOWED'
  | 'PAYLOAD_TOO_LARGE'
  | 'UNSUPPORTED_MEDIA_TYPE'
  | 'UNPROCESSABLE'
  | 'RATE_LIMITED'
  | 'TOO_MANY_ATTEMPTS'
  | 'INTERNAL_ERROR'
  | 'SERVICE_UNAVAILABLE';

/** An error the client may see: status, stable code, message, optional details and headers. */
export class AppError extends Error {
  override readonly name = 'AppError';
  constructor(
    readonly status: number,
    readonly code: ErrorCode,
    message: string,
    readonly details?: Record<string, unknown>,
    readonly headers?: Record<string, string>,
  ) {
    super(message);
  }
}

export const badRequest = (message: string, details?: Record<string, unknown>) =>
  new AppError(400, 'VALIDATION_ERROR', message, details);
export const unauthorized = (message = 'Missing or invalid credentials') =>
  new AppError(401, 'UNAUTHORIZED', message);
export const forbidden = (message = 'Not allowed') => new AppError(403, 'FORBIDDEN', message);
export const notFound = (message = 'Not found') => new AppError(404, 'NOT_FOUND', message);

/** 429 with `Retry-After` in whole seconds (at least 1). */
export function rateLimited(retryAfterSeconds: number, details?: Record<string, unknown>): AppError {
  const seconds = Math.max(1, Math.ceil(retryAfterSeconds));
  return new AppError(
    429,
    'RATE_LIMITED',
    `Too many requests; retry in ${seconds} s`,
    { retryAfter: seconds, ...details },
    { 'retry-after': String(seconds) },
  );
}

/** The body of the platform error envelope. */
export function errorBody(error: AppError): { error: { code: string; message: string; details?: object } } {
  return {
    error: {
      code: error.code,
      message: error.message,
      ...(error.details === undefined ? {} : { details: error.details }),
    },
  };
}
