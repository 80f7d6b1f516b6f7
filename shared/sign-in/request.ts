/**
 * A code lives 10 minutes and allows 5 attempts; poll at most every 5 s (docs/security.md, "Sign-in codes",
 * "Rate limits").
 */
export const CODE_TTL_SECONDS = 600;
export const MAX_ATTEMPTS = 5;
export const POLL_INTERVAL_SECONDS = 5;

/**
 * The pending sign-in request of one address in one scope (its states: docs/data-model.md, Items). Destroyed
 * = attempts reached MAX_ATTEMPTS; consumed = deleted; replaced = overwritten by a newer start.
 */
export interface SignInRequest {
  requestId: string;
  scope: string;
  email: string;
  codeHash: string;
  attempts: number;
  status: 'pending' | 'approved';
  /** Epoch ms after which the code is expired, whatever TTL has or has not deleted. */
  validUntil: number;
  /** Display name for an account this request creates. */
  name?: string;
  /** Plain code, kept only for addresses under the app's synthetic test domain (for peek). */
  peekCode?: string;
}

export interface DeviceGrant {
  scope: string;
  email: string;
  requestId: string;
  validUntil: number;
  interval: number;
  lastPolledAt?: number;
}

export const requestFromItem = (item: Record<string, unknown>): SignInRequest =>
  item as unknown as SignInRequest;
export const deviceFromItem = (item: Record<string, unknown>): DeviceGrant => item as unknown as DeviceGrant;

export const isExpired = (request: { validUntil: number }, nowMs: number) => request.validUntil <= nowMs;
export const isDestroyed = (request: SignInRequest) => request.attempts >= MAX_ATTEMPTS;
