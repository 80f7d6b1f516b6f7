/**
 * The error catalogue: every error the service answers, named for its case, with its status and
 * stable code in this one place (docs/api.md lists the common ones under Endpoints). Call sites
 * pick a name, never a status and a code separately; tests assert codes; route contracts list the
 * names they may answer (shared/routes.ts), from which the API description is generated.
 */
const catalogue = {
  /** Invalid body, query or path; malformed JSON; a missing body. */
  invalidRequest: { status: 400, code: 'VALIDATION_ERROR' },
  /** A wrong sign-in code, `details.attemptsLeft`; or a code already used. */
  wrongCode: { status: 400, code: 'VALIDATION_ERROR' },
  /** Poll on an expired request. */
  pollExpired: { status: 400, code: 'EXPIRED' },
  /** Poll with an unknown, consumed, replaced or destroyed device code. */
  deviceCodeUnusable: { status: 400, code: 'FORBIDDEN' },
  /** A social sign-in's exchange code that is unknown, used, expired or of another application. */
  socialCodeUnusable: { status: 400, code: 'FORBIDDEN' },
  unauthorized: { status: 401, code: 'UNAUTHORIZED' },
  /** A known caller that may not do this, e.g. a cookie sent from a foreign origin. */
  forbidden: { status: 403, code: 'FORBIDDEN' },
  /** The application disabled this user: sign-in (verify, approve, poll) is refused. */
  accountDisabled: { status: 403, code: 'ACCOUNT_DISABLED' },
  /** The social provider vouched for no verified email address. */
  emailNotVerified: { status: 403, code: 'EMAIL_NOT_VERIFIED' },
  /** The social provider sent the user back with an error (`access_denied`: the user declined). */
  providerDenied: { status: 403, code: 'PROVIDER_DENIED' },
  notFound: { status: 404, code: 'NOT_FOUND' },
  /** The organization's plan allows no more applications; `details: { plan, limit }`. */
  planLimit: { status: 403, code: 'PLAN_LIMIT_REACHED' },
  /** An account creates at most 10 platform organizations; `details.limit`. */
  organizationLimit: { status: 403, code: 'ORGANIZATION_LIMIT_REACHED' },
  /** An application holds at most 20 active API keys; `details.limit`. */
  apiKeyLimit: { status: 403, code: 'API_KEY_LIMIT_REACHED' },
  /** The address is already a member of the organization. */
  alreadyMember: { status: 409, code: 'ALREADY_MEMBER' },
  /** An organization always keeps an owner: its last owner cannot leave or be demoted. */
  lastOwner: { status: 409, code: 'LAST_OWNER' },
  /** An OAuth resource names exactly one application: another one registered it; `details.resource`. */
  resourceTaken: { status: 409, code: 'RESOURCE_TAKEN' },
  /** An organization is deleted only once it holds no application. */
  organizationNotEmpty: { status: 409, code: 'ORGANIZATION_NOT_EMPTY' },
  /** A first sign-in raced another path that created the same account. */
  accountChanged: { status: 409, code: 'VALIDATION_ERROR' },
  /** Verify or approve after the 10 minutes. */
  codeExpired: { status: 410, code: 'VALIDATION_ERROR' },
  payloadTooLarge: { status: 413, code: 'PAYLOAD_TOO_LARGE' },
  unsupportedMediaType: { status: 415, code: 'UNSUPPORTED_MEDIA_TYPE' },
  /** RFC 8628 `authorization_pending`: poll before approval. */
  authorizationPending: { status: 428, code: 'UNPROCESSABLE' },
  /** A rate limit, RFC 8628 `slow_down`, or too many lost write races; always with Retry-After. */
  rateLimited: { status: 429, code: 'RATE_LIMITED' },
  /** The fifth wrong code destroys the request. */
  tooManyAttempts: { status: 429, code: 'TOO_MANY_ATTEMPTS' },
  /**
   * OAuth routes (`errorStyle: 'oauth'`): RFC 6749 §5.2 error values are their codes,
   * answered as `{ error, error_description }`. `oauthInvalidRequest`: a missing, repeated or malformed
   * parameter; `invalidClient`: the client ID or its metadata document is unusable (never redirected);
   * `invalidGrant`: a code or refresh token unknown, spent, expired or bound to something else;
   * `invalidTarget` (RFC 8707 §2): a resource not registered or not the authorized one;
   * `unsupportedGrantType`: a grant other than authorization_code and refresh_token;
   * `invalidScope` (RFC 6749 §5.2): a refresh whose `scope` names none of the scopes still held.
   */
  oauthInvalidRequest: { status: 400, code: 'invalid_request' },
  invalidClient: { status: 400, code: 'invalid_client' },
  /** RFC 6749 §5.2: the client tried to authenticate by an `Authorization` header; with `WWW-Authenticate`. */
  invalidClientAuthentication: { status: 401, code: 'invalid_client' },
  invalidGrant: { status: 400, code: 'invalid_grant' },
  invalidTarget: { status: 400, code: 'invalid_target' },
  unsupportedGrantType: { status: 400, code: 'unsupported_grant_type' },
  invalidScope: { status: 400, code: 'invalid_scope' },
  /** Anything unexpected: logged with its cause, answered with a generic message. */
  internal: { status: 500, code: 'INTERNAL_ERROR' },
  /** The social provider could not be reached, refused the code or answered something unusable. */
  providerFailed: { status: 502, code: 'PROVIDER_ERROR' },
  /** The sign-in email could not be sent; with Retry-After. */
  mailUnavailable: { status: 503, code: 'SERVICE_UNAVAILABLE' },
  /** Too little of the function's time was left to commit a sign-in and answer it: nothing changed; with Retry-After. */
  outOfTime: { status: 503, code: 'SERVICE_UNAVAILABLE' },
} as const satisfies Record<string, { status: number; code: string }>;

export type ErrorName = keyof typeof catalogue;
export type ErrorCode = (typeof catalogue)[ErrorName]['code'];

export interface ErrorOptions {
  details?: Record<string, unknown>;
  headers?: Record<string, string>;
}

/** An error the client may see; its status and code come from the catalogue entry it names. */
export class AppError extends Error {
  override readonly name = 'AppError';
  readonly status: number;
  readonly code: ErrorCode;
  readonly details: Record<string, unknown> | undefined;
  readonly headers: Record<string, string> | undefined;

  constructor(
    readonly kind: ErrorName,
    message: string,
    options: ErrorOptions = {},
  ) {
    super(message);
    this.status = catalogue[kind].status;
    this.code = catalogue[kind].code;
    this.details = options.details;
    this.headers = options.headers;
  }
}

/** The named error with a message and, optionally, details. */
export const fail = (kind: ErrorName, message: string, details?: Record<string, unknown>): AppError =>
  new AppError(kind, message, details === undefined ? {} : { details });

/** An error whose client should come back later: `Retry-After` and `details.retryAfter` in whole seconds (at least 1). */
export function retryLater(
  kind: 'rateLimited' | 'mailUnavailable' | 'outOfTime',
  message: (seconds: number) => string,
  retryAfterSeconds: number,
  details?: Record<string, unknown>,
): AppError {
  const seconds = Math.max(1, Math.ceil(retryAfterSeconds));
  return new AppError(kind, message(seconds), {
    details: { retryAfter: seconds, ...details },
    headers: { 'retry-after': String(seconds) },
  });
}

/** 429 RATE_LIMITED with the exact wait. */
export const rateLimited = (retryAfterSeconds: number, details?: Record<string, unknown>): AppError =>
  retryLater('rateLimited', (s) => `Too many requests; retry in ${s} s`, retryAfterSeconds, details);

/** The body of the platform error envelope (docs/api.md, Endpoints). */
export function errorBody(error: AppError): { error: { code: string; message: string; details?: object } } {
  return {
    error: {
      code: error.code,
      message: error.message,
      ...(error.details === undefined ? {} : { details: error.details }),
    },
  };
}

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
