import type { SignInRequest } from '../store/sign-in-requests.ts';

/**
 * A code lives 10 minutes and allows 5 attempts; poll at most every 5 s (docs/security.md, "Sign-in codes",
 * "Rate limits").
 */
export const CODE_TTL_SECONDS = 600;
export const MAX_ATTEMPTS = 5;
export const POLL_INTERVAL_SECONDS = 5;

export const isExpired = (request: { validUntil: number }, nowMs: number) => request.validUntil <= nowMs;
export const isDestroyed = (request: SignInRequest) => request.attempts >= MAX_ATTEMPTS;
