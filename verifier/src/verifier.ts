import { type JWSHeaderParameters, type JWTPayload, jwtVerify } from 'jose';
import {
  ACCESS_TOKEN_TYPE,
  type AccessTokenClaims,
  accessTokenClaimsOf,
  PLATFORM_AUDIENCE,
  SESSION_TOKEN_TYPE,
  type SessionClaims,
  sessionClaimsOf,
} from './claims.ts';
import { type FailureCode, failure, type VerificationFailure, VerifierError } from './errors.ts';
import { type Fetch, RemoteKeySet } from './key-set.ts';
import { checkSessionWithService } from './service-check.ts';

/** The widest clock skew a verifier accepts: an expired token stays good at most this long. */
export const MAX_CLOCK_TOLERANCE_SECONDS = 60;
const DEFAULT_CLOCK_TOLERANCE_SECONDS = 5;
/** The service refuses longer tokens too (shared/crypto/jwt.ts). */
const MAX_TOKEN_LENGTH = 8192;

export interface VerifierOptions {
  /** The service's URL, exactly as its tokens carry it in `iss` (its `ISSUER`), e.g. `https://auth.example.com`. */
  issuer: string;
  /** Default `<issuer>/.well-known/jwks.json`. */
  jwksUrl?: string;
  /**
   * The `aud` a session token must carry unless a call names its own: your application id, or
   * `platform` (the default) for sessions signed in without a key.
   */
  audience?: string;
  /** Accepted clock skew for `exp`, `nbf` and `iat`, 0 to 60 seconds; default 5. */
  clockToleranceSeconds?: number;
  /** Default the global `fetch`. Used for the JWKS and for check-with-service calls. */
  fetch?: Fetch;
  /** Milliseconds since the epoch; default `Date.now`. */
  now?: () => number;
  /** Ask the service about every session (see {@link SessionVerifyOptions.checkWithService}); default false. */
  checkWithService?: boolean;
  /** Sent as `X-API-Key` on check-with-service calls: the service then also checks the session is that application's. */
  apiKey?: string;
}

export interface SessionVerifyOptions {
  /** The `aud` to require for this call: an application id or `platform`. Default the verifier's `audience`. */
  applicationId?: string;
  /**
   * Also call `GET <issuer>/auth/session` with the token, so a signed-out or revoked session is
   * refused at once rather than when its token expires. Costs one HTTP round trip and one read on the
   * service per call. Default the verifier's `checkWithService`.
   */
  checkWithService?: boolean;
}

export interface AccessTokenVerifyOptions {
  /** Your protected resource's URI: the `aud` the access token must carry (RFC 8707). */
  resource: string;
}

export type VerificationResult<Claims> = { ok: true; claims: Claims } | VerificationFailure;

export interface Verifier {
  /** Verifies a session token (RS256, `typ: JWT`, issuer, audience, expiry); claims or a failure. */
  verifySession(token: string, options?: SessionVerifyOptions): Promise<VerificationResult<SessionClaims>>;
  /** Verifies an OAuth access token (RS256, `typ: at+jwt`, issuer, `aud` = resource, expiry). */
  verifyAccessToken(
    token: string,
    options: AccessTokenVerifyOptions,
  ): Promise<VerificationResult<AccessTokenClaims>>;
}

class UnknownKey extends Error {}

/** jose's stable error codes (and the claim it names) to ours; anything else is not about the token. */
function failureOf(error: unknown): VerificationFailure {
  if (error instanceof UnknownKey) return failure('KEY_UNKNOWN', 'No key of the JWKS has the token\'s "kid"');
  const { code, claim } = error as { code?: unknown; claim?: unknown };
  const codes: Record<string, FailureCode> = {
    ERR_JOSE_ALG_NOT_ALLOWED: 'TOKEN_ALGORITHM',
    ERR_JWS_SIGNATURE_VERIFICATION_FAILED: 'TOKEN_SIGNATURE',
    ERR_JWT_EXPIRED: 'TOKEN_EXPIRED',
    ERR_JWS_INVALID: 'TOKEN_MALFORMED',
    ERR_JWT_INVALID: 'TOKEN_MALFORMED',
    ERR_JOSE_NOT_SUPPORTED: 'TOKEN_MALFORMED',
  };
  const claimCodes: Record<string, FailureCode> = {
    iss: 'TOKEN_ISSUER',
    aud: 'TOKEN_AUDIENCE',
    typ: 'TOKEN_TYPE',
    nbf: 'TOKEN_NOT_YET_VALID',
    iat: 'TOKEN_NOT_YET_VALID',
  };
  if (code === 'ERR_JWT_CLAIM_VALIDATION_FAILED') {
    return failure(claimCodes[String(claim)] ?? 'TOKEN_CLAIMS', (error as Error).message);
  }
  const mapped = typeof code === 'string' ? codes[code] : undefined;
  if (mapped) return failure(mapped, (error as Error).message);
  throw error;
}

function configured(options: VerifierOptions) {
  let issuer: URL;
  try {
    issuer = new URL(options.issuer);
  } catch (cause) {
    throw new VerifierError('CONFIGURATION', `issuer must be an absolute URL, got ${options.issuer}`, {
      cause,
    });
  }
  if (issuer.protocol !== 'https:' && issuer.protocol !== 'http:') {
    throw new VerifierError('CONFIGURATION', 'issuer must be an http(s) URL');
  }
  const tolerance = options.clockToleranceSeconds ?? DEFAULT_CLOCK_TOLERANCE_SECONDS;
  if (!Number.isInteger(tolerance) || tolerance < 0 || tolerance > MAX_CLOCK_TOLERANCE_SECONDS) {
    throw new VerifierError(
      'CONFIGURATION',
      `clockToleranceSeconds must be a whole number from 0 to ${MAX_CLOCK_TOLERANCE_SECONDS}`,
    );
  }
  const issuerUrl = options.issuer.replace(/\/+$/, '');
  return { issuer: issuerUrl, tolerance, jwksUrl: options.jwksUrl ?? `${issuerUrl}/.well-known/jwks.json` };
}

/**
 * A verifier for one service: tokens are checked locally against its JWKS (cached one hour, see
 * key-set.ts). Invalid tokens come back as `{ ok: false, code }`; only a misconfiguration or an
 * unreachable JWKS or service throws a {@link VerifierError}.
 */
export function createVerifier(options: VerifierOptions): Verifier {
  const { issuer, tolerance, jwksUrl } = configured(options);
  const fetch: Fetch = options.fetch ?? ((input, init) => globalThis.fetch(input, init));
  const now = options.now ?? Date.now;
  const keySet = new RemoteKeySet(jwksUrl, fetch, now);
  const fetchKey = async (kid: string | undefined) => {
    const key = await keySet.get(kid);
    if (!key) throw new UnknownKey();
    return key;
  };
  const keyOf = (header: JWSHeaderParameters) => keySet.cached(header.kid) ?? fetchKey(header.kid);

  async function verified(
    token: string,
    audience: string,
    typ: string,
  ): Promise<VerificationResult<JWTPayload>> {
    if (typeof token !== 'string' || token.length > MAX_TOKEN_LENGTH) {
      return failure('TOKEN_MALFORMED', 'The token is not a string of at most 8192 characters');
    }
    try {
      const { payload } = await jwtVerify(token, keyOf, {
        algorithms: ['RS256'],
        issuer,
        audience,
        typ,
        requiredClaims: ['exp', 'iat'],
        clockTolerance: tolerance,
        currentDate: new Date(now()),
      });
      // jose checks `iat` only with `maxTokenAge`: a token issued in the future is refused here.
      if (typeof payload.iat === 'number' && payload.iat > now() / 1000 + tolerance) {
        return failure('TOKEN_NOT_YET_VALID', 'The token was issued in the future ("iat")');
      }
      return { ok: true, claims: payload };
    } catch (error) {
      return failureOf(error);
    }
  }

  return {
    async verifySession(token, callOptions = {}) {
      const audience = callOptions.applicationId ?? options.audience ?? PLATFORM_AUDIENCE;
      const result = await verified(token, audience, SESSION_TOKEN_TYPE);
      if (!result.ok) return result;
      const claims = sessionClaimsOf(result.claims);
      if (!claims) return failure('TOKEN_CLAIMS', 'A session claim is missing or mistyped');
      if (callOptions.checkWithService ?? options.checkWithService ?? false) {
        const refused = await checkSessionWithService(
          { issuer, fetch, apiKey: options.apiKey },
          token,
          claims,
        );
        if (refused) return refused;
      }
      return { ok: true, claims };
    },
    async verifyAccessToken(token, { resource }) {
      if (typeof resource !== 'string' || resource === '') {
        throw new VerifierError('CONFIGURATION', 'verifyAccessToken needs the resource URI');
      }
      const result = await verified(token, resource, ACCESS_TOKEN_TYPE);
      if (!result.ok) return result;
      const claims = accessTokenClaimsOf(result.claims);
      if (!claims) return failure('TOKEN_CLAIMS', 'An access token claim is missing or mistyped');
      return { ok: true, claims };
    },
  };
}
