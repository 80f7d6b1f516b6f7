export type { AccessTokenClaims, SessionClaims } from './claims.ts';
export { ACCESS_TOKEN_TYPE, PLATFORM_AUDIENCE, SESSION_TOKEN_TYPE } from './claims.ts';
export type { FailureCode, VerificationFailure, VerifierErrorCode } from './errors.ts';
export { VerifierError } from './errors.ts';
export type { Fetch } from './key-set.ts';
export { JWKS_MAX_AGE_MS, REFETCH_COOLDOWN_MS } from './key-set.ts';
export type {
  AccessTokenVerifyOptions,
  SessionVerifyOptions,
  VerificationResult,
  Verifier,
  VerifierOptions,
} from './verifier.ts';
export { createVerifier, MAX_CLOCK_TOLERANCE_SECONDS } from './verifier.ts';
