/**
 * Which signing key generations sign and which are published, at a given time (AWS cannot rotate asymmetric
 * keys, so a rotation is a new key beside the old one: docs/security.md, "Key generations and rotation").
 *
 * - A generation signs from `notBefore` (absent: always) until `notAfter` (absent: never ends).
 *   When several could sign, the one that started last does: a `next` key takes over at its
 *   `notBefore` even if the old key's `notAfter` is later.
 * - A generation is published in the JWKS from the deploy that adds it (so verifiers that cache
 *   the JWKS for an hour know it before its first token) until `RETAINED_AFTER_SIGNING_MS` after
 *   its `notAfter`, the longest a token it signed can live; then its tokens are refused.
 * - The JWKS lists the active key first, then the others in their declared order.
 */

/** The session lifetime (shared/identity/session-token.ts SESSION_TTL_SECONDS, 7 days; a test keeps them equal). */
export const RETAINED_AFTER_SIGNING_MS = 7 * 24 * 3_600_000;

/** One generation: its KMS key id (ARN) and signing window, in epoch milliseconds. */
export interface KeyGeneration {
  readonly keyId: string;
  readonly notBefore?: number;
  readonly notAfter?: number;
}

const signsAt = (key: KeyGeneration, now: number) =>
  (key.notBefore === undefined || key.notBefore <= now) && (key.notAfter === undefined || now < key.notAfter);

const publishedAt = (key: KeyGeneration, now: number) =>
  key.notAfter === undefined || now < key.notAfter + RETAINED_AFTER_SIGNING_MS;

/** The generation that signs at `now`, or undefined when none does. */
export function activeGeneration<K extends KeyGeneration>(keys: readonly K[], now: number): K | undefined {
  let active: K | undefined;
  for (const key of keys) {
    if (!signsAt(key, now)) continue;
    if (!active || (key.notBefore ?? -Infinity) > (active.notBefore ?? -Infinity)) active = key;
  }
  return active;
}

/** The generations in the JWKS at `now`: the active one first, then the others in declared order. */
export function publishedGenerations<K extends KeyGeneration>(keys: readonly K[], now: number): K[] {
  const active = activeGeneration(keys, now);
  const rest = keys.filter((key) => key !== active && publishedAt(key, now));
  return active ? [active, ...rest] : rest;
}
