import { sha256Hex } from '../crypto/hash.ts';
import type { Deps } from '../deps.ts';
import { fail } from '../errors.ts';
import { newId } from '../random.ts';
import { tooBusy } from '../rate-limit/rate-limit.ts';
import {
  type ApiKeyEntry,
  type ApiKeyRecord,
  apiKeyEntries,
  noteApiKeyUse,
  putApiKey,
  readApiKey,
  readApiKeyEntry,
  readApiKeys,
  revokeApiKey as revokeStoredKey,
} from '../store/api-keys.ts';
import { type AuditRequest, changeEntry } from './audit.ts';
import { API_KEYS_PER_APPLICATION } from './plans.ts';

export type ApiKeyType = 'public' | 'secret';

export interface ApiKey {
  applicationId: string;
  type: ApiKeyType;
  /** The SHA-256 the key is stored under. */
  keyHash: string;
  /**
   * The key has seen its application's official origin recorded (shared/tenancy/origin-learning.ts):
   * its requests need not try to learn it.
   */
  originKnown: boolean;
  /** The key's id and hash (absent on keys made before ids existed), and when it was last noted in use. */
  use?: { keyId: string; keyHash: string; lastUsedAt: string | null };
}

/** Issue `pu_`/`sk_`; accept `ak_` (the interface description's prefix) as secret. */
const prefixType: Record<string, ApiKeyType> = { pu_: 'public', sk_: 'secret', ak_: 'secret' };
const KEY_FORMAT = /^(pu_|sk_|ak_)[A-Za-z0-9_-]{22,128}$/;

/** The key's storage hash, or null when it cannot be one of our keys (no read is spent on it). */
export function apiKeyHash(presented: string): string | null {
  if (!KEY_FORMAT.test(presented)) return null;
  // `ak_<secret>` is the interface description's spelling of our `sk_<secret>`: the same key.
  return sha256Hex(presented.startsWith('ak_') ? `sk_${presented.slice(3)}` : presented);
}

/**
 * The key of a stored key record, checking the presented prefix agrees with the stored type.
 * A revoked key is null unless `includeRevoked` (sign-out still clears a revoked key's cookie).
 */
export function apiKeyFromRecord(
  presented: string,
  record: ApiKeyRecord | undefined,
  { includeRevoked = false } = {},
): ApiKey | null {
  if (!record || (record.revokedAt && !includeRevoked)) return null;
  const type = record.keyType;
  if (prefixType[presented.slice(0, 3)] !== type) return null;
  const { keyId, keyHash } = record;
  return {
    applicationId: record.applicationId,
    type,
    keyHash,
    originKnown: record.originKnown === true,
    ...(keyId ? { use: { keyId, keyHash, lastUsedAt: record.lastUsedAt ?? null } } : {}),
  };
}

/** Resolves an `X-API-Key` value, or throws 401 for an unknown, malformed or revoked key. */
export async function resolveApiKey(deps: Deps, presented: string): Promise<ApiKey> {
  const hash = apiKeyHash(presented);
  if (!hash) throw fail('unauthorized', 'The API key is not valid');
  const key = apiKeyFromRecord(presented, await readApiKey(deps.db, hash));
  if (!key) throw fail('unauthorized', 'The API key is not valid');
  return key;
}

/** The listing entry of a key: never the key, never its hash. */
export interface ApiKeySummary {
  id: string;
  applicationId: string;
  type: ApiKeyType;
  /** The key's first characters (`pu_AbCd`), to tell keys apart. */
  prefix: string;
  createdAt: string;
  lastUsedAt: string | null;
  revokedAt: string | null;
}

const summaryFromEntry = (entry: ApiKeyEntry): ApiKeySummary => ({
  id: entry.id,
  applicationId: entry.applicationId,
  type: entry.keyType,
  prefix: entry.hint,
  createdAt: entry.createdAt,
  lastUsedAt: entry.lastUsedAt ?? null,
  revokedAt: entry.revokedAt ?? null,
});

/**
 * Creates a key and returns it in full: the only time it is ever shown (only its SHA-256 is
 * stored). 403 `API_KEY_LIMIT` beyond the active keys an application may hold.
 */
export async function createApiKey(
  deps: Deps,
  audit: AuditRequest,
  input: { applicationId: string; organizationId: string; type: ApiKeyType },
): Promise<ApiKeySummary & { key: string }> {
  const marker = input.type === 'public' ? 'pu_' : 'sk_';
  const key = `${marker}${Buffer.from(deps.random.bytes(24)).toString('base64url')}`;
  const summary: ApiKeySummary = {
    id: newId(deps.random, 'key'),
    applicationId: input.applicationId,
    type: input.type,
    // First characters only, so owners can tell keys apart without the key being recoverable.
    prefix: key.slice(0, 7),
    createdAt: new Date(deps.clock.now()).toISOString(),
    lastUsedAt: null,
    revokedAt: null,
  };
  const stored = await putApiKey(
    deps.db,
    {
      id: summary.id,
      keyHash: sha256Hex(key),
      keyType: input.type,
      applicationId: input.applicationId,
      hint: summary.prefix,
      createdAt: summary.createdAt,
    },
    API_KEYS_PER_APPLICATION,
    changeEntry(deps, audit, 'apiKey.created', {
      organizationId: input.organizationId,
      applicationId: input.applicationId,
      targetId: summary.id,
      targetLabel: summary.prefix,
      changes: [{ path: 'type', from: null, to: input.type }],
    }),
  );
  if (stored === 'missing') throw fail('notFound', 'No such application');
  if (stored === 'full') {
    throw fail(
      'apiKeyLimit',
      `An application holds at most ${API_KEYS_PER_APPLICATION} active API keys; revoke one first`,
      {
        limit: API_KEYS_PER_APPLICATION,
      },
    );
  }
  if (stored === 'conflict') throw tooBusy();
  return { ...summary, key };
}

/** An application's keys, newest first, revoked ones included (and marked). */
/**
 * An application's keys, newest first: revoked ones for a month after their revocation (then
 * their items expire), each with its last use, read from the key items (ONE BatchGetItem).
 */
export async function listApiKeys(deps: Deps, applicationId: string): Promise<ApiKeySummary[]> {
  const nowSeconds = deps.clock.now() / 1000;
  const entries = (await apiKeyEntries(deps.db, applicationId)).filter(
    (entry) => entry.expiresAt === undefined || entry.expiresAt > nowSeconds,
  );
  const used = new Map(
    (
      await readApiKeys(
        deps.db,
        entries.map((entry) => entry.keyHash),
      )
    ).map((key) => [key.keyId, key.lastUsedAt ?? null]),
  );
  return entries
    .map((entry) => ({ ...summaryFromEntry(entry), lastUsedAt: used.get(entry.id) ?? null }))
    .sort((a, b) => b.createdAt.localeCompare(a.createdAt));
}

/**
 * Revokes a key of the application: it stops working on the next request. Idempotent: revoking a
 * revoked key changes nothing and records nothing.
 */
export async function revokeApiKey(
  deps: Deps,
  audit: AuditRequest,
  application: { id: string; organizationId: string },
  keyId: string,
): Promise<ApiKeySummary> {
  const applicationId = application.id;
  const entry = await readApiKeyEntry(deps.db, applicationId, keyId);
  if (!entry) throw fail('notFound', 'No such API key in this application');
  const now = new Date(deps.clock.now());
  const revoked = await revokeStoredKey(
    deps.db,
    { applicationId, keyId, keyHash: entry.keyHash },
    now,
    changeEntry(deps, audit, 'apiKey.revoked', {
      organizationId: application.organizationId,
      applicationId,
      targetId: keyId,
      targetLabel: entry.hint,
    }),
  );
  if (revoked.outcome === 'conflict') throw tooBusy();
  return {
    ...summaryFromEntry(entry),
    revokedAt: revoked.outcome === 'revoked' ? now.toISOString() : revoked.revokedAt,
  };
}

/** Last use is noted at most once a minute per key (docs/api.md, "API keys"), so reads stay cheap. */
const USE_RESOLUTION_MS = 60_000;

/** Notes the key's use if its last noted use is older than a minute; never fails the request. */
export async function noteKeyUse(deps: Deps, key: ApiKey): Promise<void> {
  const use = key.use;
  if (!use) return;
  const now = deps.clock.now();
  if (use.lastUsedAt !== null && Date.parse(use.lastUsedAt) > now - USE_RESOLUTION_MS) return;
  try {
    await noteApiKeyUse(
      deps.db,
      use.keyHash,
      new Date(now).toISOString(),
      new Date(now - USE_RESOLUTION_MS).toISOString(),
    );
  } catch (error) {
    deps.logger.log('warn', 'could not note an API key use', { error: (error as Error).name });
  }
}
