import type { Credentials } from '../sessions/resolve.ts';
import type { HttpEvent } from './types.ts';

/** RFC 6750 §2.1: `Bearer <token>`, the scheme case-insensitive. */
const BEARER = /^Bearer\s+(\S+)\s*$/i;

/** What the request presents, read from the API Gateway event (header names arrive lower-cased). */
export function credentialsOf(event: HttpEvent): Credentials {
  const authorization = event.headers?.authorization;
  return {
    bearer: authorization === undefined ? undefined : (BEARER.exec(authorization)?.[1] ?? null),
    cookies: event.cookies ?? [],
    apiKey: event.headers?.['x-api-key'],
    origin: event.headers?.origin,
    fetchSite: event.headers?.['sec-fetch-site'],
  };
}
