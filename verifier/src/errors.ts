/**
 * Why a token was refused: a value, never an exception (an invalid token is an expected outcome).
 * Assert on `code`; the message is for logs.
 */
export type FailureCode =
  /** Not a compact JWS, too long, or its header or payload is not JSON. */
  | 'TOKEN_MALFORMED'
  /** Its `alg` is not RS256 (`none`, HS256 keyed with the public key, ...). RFC 8725 §3.1. */
  | 'TOKEN_ALGORITHM'
  /** Its `kid` is in no key of the JWKS, even after the one refetch the cooldown allows. */
  | 'KEY_UNKNOWN'
  | 'TOKEN_SIGNATURE'
  /** `exp` is past (beyond the clock tolerance). */
  | 'TOKEN_EXPIRED'
  /** `nbf` or `iat` lies in the future (beyond the clock tolerance). */
  | 'TOKEN_NOT_YET_VALID'
  | 'TOKEN_ISSUER'
  | 'TOKEN_AUDIENCE'
  /** The header's `typ` is not this kind of token's (`JWT` for a session, `at+jwt` for an access token). */
  | 'TOKEN_TYPE'
  /** A claim the service always sets is missing or of the wrong type. */
  | 'TOKEN_CLAIMS'
  /** Check-with-service mode: the service no longer knows the session (signed out, revoked, refreshed away). */
  | 'SESSION_REVOKED';

export interface VerificationFailure {
  ok: false;
  code: FailureCode;
  message: string;
}

export const failure = (code: FailureCode, message: string): VerificationFailure => ({
  ok: false,
  code,
  message,
});

export type VerifierErrorCode =
  /** An option of `createVerifier` is invalid. */
  | 'CONFIGURATION'
  /** The JWKS could not be fetched or is not a key set. */
  | 'JWKS_UNAVAILABLE'
  /** Check-with-service mode: the service answered neither 200 nor 401, or could not be reached. */
  | 'SERVICE_UNAVAILABLE';

/**
 * Thrown only for a misconfiguration or an unreachable service: the caller cannot tell whether the
 * token is good, so a middleware answers 503, never 401.
 */
export class VerifierError extends Error {
  override readonly name = 'VerifierError';
  readonly code: VerifierErrorCode;

  constructor(code: VerifierErrorCode, message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.code = code;
  }
}
