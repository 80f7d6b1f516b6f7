import type { MiddlewareHandler } from 'hono';
import type { AccessTokenClaims, SessionClaims } from './claims.ts';
import { authenticate } from './middleware.ts';
import type {
  AccessTokenVerifyOptions,
  SessionVerifyOptions,
  VerificationResult,
  Verifier,
} from './verifier.ts';

/** The Hono environment `requireSession` provides: `c.get('auth')` is the session's claims. */
export type SessionEnv = { Variables: { auth: SessionClaims } };
/** The Hono environment `requireAccessToken` provides. */
export type AccessTokenEnv = { Variables: { auth: AccessTokenClaims } };

function middleware<Claims>(
  verify: (token: string) => Promise<VerificationResult<Claims>>,
): MiddlewareHandler<{ Variables: { auth: Claims } }> {
  return async (c, next) => {
    const outcome = await authenticate(c.req.header('authorization'), verify);
    if (!outcome.ok) return c.json(outcome.refusal.body, outcome.refusal.status, outcome.refusal.headers);
    c.set('auth', outcome.claims);
    await next();
    return undefined;
  };
}

/**
 * Hono middleware: a valid session token in `Authorization: Bearer` is set as `c.get('auth')`;
 * otherwise 401 with the service's error envelope (503 when keys cannot be fetched).
 */
export function requireSession(
  verifier: Verifier,
  options: SessionVerifyOptions = {},
): MiddlewareHandler<SessionEnv> {
  return middleware((token) => verifier.verifySession(token, options));
}

/** Hono middleware for an OAuth access token whose `aud` is `options.resource`. */
export function requireAccessToken(
  verifier: Verifier,
  options: AccessTokenVerifyOptions,
): MiddlewareHandler<AccessTokenEnv> {
  return middleware((token) => verifier.verifyAccessToken(token, options));
}
