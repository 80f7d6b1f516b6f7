/** What the service says about a failure, beside its `code` (docs/api.md, error table). */
export interface ErrorDetails {
  /** A wrong sign-in code: how many tries the request has left. */
  attemptsLeft?: number;
  /** A rate limit: seconds to wait (from `details.retryAfter`, else the `Retry-After` header). */
  retryAfter?: number;
  /** Polling: the interval, in seconds, to keep between polls from now on. */
  interval?: number;
  /** Which case of a shared code: `slow_down`, `authorization_pending`, `mail_cap`, `expired`, … */
  reason?: string;
  [name: string]: unknown;
}

/**
 * Every failure the client reports: the service's error envelope `{ error: { code, message, details } }`
 * as a typed error. Branch on `code` (stable), never on `message`. `status` is the HTTP status, or 0
 * when no answer arrived (`code` `NETWORK_ERROR`). An aborted call rejects with the signal's reason
 * instead (an `AbortError`), as `fetch` does.
 */
export class DoorcodeError extends Error {
  override readonly name = 'DoorcodeError';
  readonly status: number;
  readonly code: string;
  readonly details: ErrorDetails;

  constructor(status: number, code: string, message: string, details: ErrorDetails = {}, cause?: unknown) {
    super(message, cause === undefined ? undefined : { cause });
    this.status = status;
    this.code = code;
    this.details = details;
  }
}

interface Envelope {
  error?: { code?: unknown; message?: unknown; details?: unknown };
}

/** The typed error for a non-2xx answer whose body has been parsed (or is `undefined`). */
export function errorFromAnswer(
  status: number,
  body: unknown,
  retryAfterHeader: string | null,
): DoorcodeError {
  const error = (body as Envelope | undefined)?.error;
  const details: ErrorDetails =
    error?.details && typeof error.details === 'object' ? { ...(error.details as ErrorDetails) } : {};
  const header = Number(retryAfterHeader);
  if (details.retryAfter === undefined && retryAfterHeader && Number.isFinite(header))
    details.retryAfter = header;
  // API Gateway's own answers (throttling, unknown path) carry `{ message }`, not the envelope.
  const code = typeof error?.code === 'string' ? error.code : 'HTTP_ERROR';
  const message = typeof error?.message === 'string' ? error.message : `HTTP ${status}`;
  return new DoorcodeError(status, code, message, details);
}
