import type { SessionClaims } from './claims.ts';
import { failure, type VerificationFailure, VerifierError } from './errors.ts';
import type { Fetch } from './key-set.ts';

const TIMEOUT_MS = 5000;

/**
 * Check-with-service mode: `GET <issuer>/auth/session` with the token (and the key, if configured).
 * The service answers 401 for a token whose session is gone or whose `jti` a refresh replaced
 * (docs/api.md), so revocation takes effect at once. Null when the service knows the session.
 */
export async function checkSessionWithService(
  service: { issuer: string; fetch: Fetch; apiKey: string | undefined },
  token: string,
  claims: SessionClaims,
): Promise<VerificationFailure | null> {
  let response: Response;
  try {
    response = await service.fetch(`${service.issuer}/auth/session`, {
      headers: {
        accept: 'application/json',
        authorization: `Bearer ${token}`,
        ...(service.apiKey ? { 'x-api-key': service.apiKey } : {}),
      },
      signal: AbortSignal.timeout(TIMEOUT_MS),
    });
  } catch (cause) {
    throw new VerifierError('SERVICE_UNAVAILABLE', 'GET /auth/session could not be reached', { cause });
  }
  if (response.status === 401) {
    await response.body?.cancel();
    return failure('SESSION_REVOKED', 'The service no longer accepts this session');
  }
  if (response.status !== 200) {
    await response.body?.cancel();
    throw new VerifierError('SERVICE_UNAVAILABLE', `GET /auth/session answered ${response.status}`);
  }
  // A 200 that is not the service's answer (a proxy's page, a truncated body) says nothing either way.
  let body: { session?: { id?: unknown } } | null;
  try {
    body = (await response.json()) as { session?: { id?: unknown } } | null;
  } catch (cause) {
    throw new VerifierError('SERVICE_UNAVAILABLE', 'GET /auth/session answered 200 without JSON', { cause });
  }
  if (!body || typeof body !== 'object' || Array.isArray(body)) {
    throw new VerifierError('SERVICE_UNAVAILABLE', 'GET /auth/session answered 200 without a JSON object');
  }
  // An object without `session` is the service's anonymous answer (`{}`, `{ application }`): no session.
  if (body.session?.id !== claims.sid) {
    return failure('SESSION_REVOKED', 'The service resolved no session, or another one, for this token');
  }
  return null;
}
