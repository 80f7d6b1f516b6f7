import type { Deps } from '../deps.ts';
import { readApiKey } from '../store/api-keys.ts';
import { PLATFORM } from '../store/keys.ts';
import { type ApiKey, apiKeyFromRecord, apiKeyHash, resolveApiKey } from './api-keys.ts';

export interface KeyScope {
  /** `platform` without a key, else the key's application id. */
  scope: string;
  key: ApiKey | null;
}

/** The scope a sign-in request works in, from the optional `X-API-Key`. */
export async function scopeOf(deps: Deps, presented: string | undefined): Promise<KeyScope> {
  if (presented === undefined) return { scope: PLATFORM, key: null };
  const key = await resolveApiKey(deps, presented);
  return { scope: key.applicationId, key };
}

/**
 * The application a presented key names, even a revoked one (sign-out must still clear that
 * application's cookie), or null for no key or one that is not ours.
 */
export async function keyScopeEvenIfRevoked(
  deps: Deps,
  presented: string | undefined,
): Promise<string | null> {
  const hash = presented === undefined ? null : apiKeyHash(presented);
  if (!presented || !hash) return null;
  const record = await readApiKey(deps.db, hash);
  return apiKeyFromRecord(presented, record, { includeRevoked: true })?.applicationId ?? null;
}
