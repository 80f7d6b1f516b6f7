import { sha256Hex } from '../crypto/hash.ts';
import type { Deps } from '../deps.ts';
import { fail } from '../errors.ts';
import { putApiKey, readApiKey } from '../store/api-keys.ts';

export type ApiKeyType = 'public' | 'secret';

export interface ApiKey {
  applicationId: string;
  type: ApiKeyType;
}

/** DESIGN §5: issue `pu_`/`sk_`; accept `ak_` (the interface description's prefix) as secret. */
const prefixType: Record<string, ApiKeyType> = { pu_: 'public', sk_: 'secret', ak_: 'secret' };
const KEY_FORMAT = /^(pu_|sk_|ak_)[A-Za-z0-9_-]{22,128}$/;

/** The key's storage hash, or null when it cannot be one of our keys (no read is spent on it). */
export function apiKeyHash(presented: string): string | null {
  if (!KEY_FORMAT.test(presented)) return null;
  // `ak_<secret>` is the interface description's spelling of our `sk_<secret>`: the same key.
  return sha256Hex(presented.startsWith('ak_') ? `sk_${presented.slice(3)}` : presented);
}

/**
 * Decodes the stored key record, checking the presented prefix agrees with the stored type.
 * A revoked key is null unless `includeRevoked` (sign-out still clears a revoked key's cookie).
 */
export function apiKeyFromItem(
  presented: string,
  item: Record<string, unknown> | undefined,
  { includeRevoked = false } = {},
): ApiKey | null {
  if (!item || (item.revokedAt && !includeRevoked)) return null;
  const type = item.keyType as ApiKeyType;
  if (prefixType[presented.slice(0, 3)] !== type) return null;
  return { applicationId: item.applicationId as string, type };
}

/** Resolves an `X-API-Key` value, or throws 401 for an unknown, malformed or revoked key. */
export async function resolveApiKey(deps: Deps, presented: string): Promise<ApiKey> {
  const hash = apiKeyHash(presented);
  if (!hash) throw fail('unauthorized', 'The API key is not valid');
  const key = apiKeyFromItem(presented, await readApiKey(deps.db, hash));
  if (!key) throw fail('unauthorized', 'The API key is not valid');
  return key;
}

/** Creates a key and returns it in full: the only time it is ever shown (only its hash is stored). */
export async function createApiKey(
  deps: Deps,
  input: { applicationId: string; type: ApiKeyType },
): Promise<{ key: string; prefix: string; type: ApiKeyType; applicationId: string }> {
  const prefix = input.type === 'public' ? 'pu_' : 'sk_';
  const key = `${prefix}${Buffer.from(deps.random.bytes(24)).toString('base64url')}`;
  const stored = await putApiKey(deps.db, {
    keyHash: sha256Hex(key),
    keyType: input.type,
    applicationId: input.applicationId,
    // First characters only, so owners can tell keys apart without the key being recoverable.
    hint: key.slice(0, 7),
    createdAt: new Date(deps.clock.now()).toISOString(),
  });
  if (stored.outcome === 'exists') throw new Error('a new API key collided with a stored one');
  return { key, prefix, type: input.type, applicationId: input.applicationId };
}
