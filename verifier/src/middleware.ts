import { VerifierError } from './errors.ts';
import type { VerificationResult } from './verifier.ts';

/** The service's error envelope (docs/api.md): `{ error: { code, message, details? } }`. */
interface ErrorEnvelope {
  error: { code: 'UNAUTHORIZED' | 'SERVICE_UNAVAILABLE'; message: string; details?: { reason: string } };
}

interface Refusal {
  status: 401 | 503;
  headers: Record<string, string>;
  body: ErrorEnvelope;
}

export type Authentication<Claims> = { ok: true; claims: Claims } | { ok: false; refusal: Refusal };

const BEARER = /^Bearer +([A-Za-z0-9\-._~+/]+=*) *$/i;

/**
 * What both middlewares do: read `Authorization: Bearer <token>`, verify it, and either hand back
 * the claims or the answer to send. 401 (RFC 6750 §3 `WWW-Authenticate`) for a missing or refused
 * token; 503 when the JWKS or the service cannot be reached, since the token may be good. A
 * misconfiguration is thrown to the framework.
 */
export async function authenticate<Claims>(
  authorization: string | undefined,
  verify: (token: string) => Promise<VerificationResult<Claims>>,
): Promise<Authentication<Claims>> {
  const token = authorization === undefined ? undefined : BEARER.exec(authorization)?.[1];
  if (token === undefined) {
    return refuse(401, { 'www-authenticate': 'Bearer' }, 'A bearer token is required', 'TOKEN_MISSING');
  }
  try {
    const result = await verify(token);
    if (result.ok) return { ok: true, claims: result.claims };
    return refuse(
      401,
      { 'www-authenticate': 'Bearer error="invalid_token"' },
      'The bearer token is not valid',
      result.code,
    );
  } catch (error) {
    if (error instanceof VerifierError && error.code !== 'CONFIGURATION') {
      return {
        ok: false,
        refusal: {
          status: 503,
          headers: { 'retry-after': '5' },
          body: { error: { code: 'SERVICE_UNAVAILABLE', message: 'The token cannot be checked right now' } },
        },
      };
    }
    throw error;
  }
}

function refuse(
  status: 401,
  headers: Record<string, string>,
  message: string,
  reason: string,
): Authentication<never> {
  return {
    ok: false,
    refusal: { status, headers, body: { error: { code: 'UNAUTHORIZED', message, details: { reason } } } },
  };
}
