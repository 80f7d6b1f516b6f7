import type { NextFunction, Request, RequestHandler, Response } from 'express';
import type { AccessTokenClaims, SessionClaims } from './claims.ts';
import { authenticate } from './middleware.ts';
import type {
  AccessTokenVerifyOptions,
  SessionVerifyOptions,
  VerificationResult,
  Verifier,
} from './verifier.ts';

declare global {
  namespace Express {
    interface Request {
      /** The verified token's claims, set by `requireSession` or `requireAccessToken`. */
      auth?: SessionClaims | AccessTokenClaims;
    }
  }
}

/** A request that passed `requireSession`. */
export type SessionRequest = Request & { auth: SessionClaims };
/** A request that passed `requireAccessToken`. */
export type AccessTokenRequest = Request & { auth: AccessTokenClaims };

function middleware<Claims extends SessionClaims | AccessTokenClaims>(
  verify: (token: string) => Promise<VerificationResult<Claims>>,
): RequestHandler {
  return async (req: Request, res: Response, next: NextFunction) => {
    try {
      const outcome = await authenticate(req.get('authorization'), verify);
      if (!outcome.ok) {
        res.status(outcome.refusal.status).set(outcome.refusal.headers).json(outcome.refusal.body);
        return;
      }
      req.auth = outcome.claims;
    } catch (error) {
      next(error);
      return;
    }
    next();
  };
}

/**
 * Express middleware: a valid session token in `Authorization: Bearer` sets `req.auth` to its
 * claims; otherwise 401 with the service's error envelope (503 when keys cannot be fetched).
 */
export function requireSession(verifier: Verifier, options: SessionVerifyOptions = {}): RequestHandler {
  return middleware((token) => verifier.verifySession(token, options));
}

/** Express middleware for an OAuth access token whose `aud` is `options.resource`. */
export function requireAccessToken(verifier: Verifier, options: AccessTokenVerifyOptions): RequestHandler {
  return middleware((token) => verifier.verifyAccessToken(token, options));
}
