/**
 * Client metadata documents kept in memory per container: successes only, for as
 * long as the document's `Cache-Control` allows within bounds, the least recently used dropped
 * beyond a fixed number. A failure is never kept: a client that fixes its document is served at once.
 */
import type { ClientMetadata } from './model.ts';

/** Documents kept per container. */
export const METADATA_CACHE_ENTRIES = 100;
/** Without `Cache-Control: max-age`, a document is kept this long. */
export const DEFAULT_METADATA_TTL_SECONDS = 5 * 60;
/** However long `max-age` says, a document is fetched again after this. */
export const MAX_METADATA_TTL_SECONDS = 24 * 60 * 60;

/**
 * How long a document may be kept, in seconds, from its `Cache-Control` (RFC 9111 §5.2.2): 0 for
 * `no-store`, `no-cache` or `max-age=0`; `max-age` clamped to [0, 24 h]; 5 minutes without one.
 */
export function metadataLifetimeSeconds(cacheControl: string | undefined): number {
  const directives = (cacheControl ?? '')
    .toLowerCase()
    .split(',')
    .map((directive) => directive.trim());
  if (directives.includes('no-store') || directives.includes('no-cache')) return 0;
  const maxAge = directives.find((directive) => /^max-age\s*=/.test(directive));
  if (maxAge === undefined) return DEFAULT_METADATA_TTL_SECONDS;
  const value =
    maxAge
      .split('=')[1]
      ?.trim()
      .replace(/^"(.*)"$/, '$1') ?? '';
  // RFC 9111 §4.2.1: an invalid freshness lifetime is treated as stale.
  if (!/^\d+$/.test(value)) return 0;
  return Math.min(Number(value), MAX_METADATA_TTL_SECONDS);
}

interface Entry {
  metadata: ClientMetadata;
  /** Epoch milliseconds. */
  expiresAt: number;
}

/** A bounded least-recently-used map of client ID to metadata, each entry with its own expiry. */
export class MetadataCache {
  private readonly entries = new Map<string, Entry>();

  constructor(private readonly capacity = METADATA_CACHE_ENTRIES) {}

  get(clientId: string, now: number): ClientMetadata | undefined {
    const entry = this.entries.get(clientId);
    if (!entry) return undefined;
    this.entries.delete(clientId);
    if (entry.expiresAt <= now) return undefined;
    this.entries.set(clientId, entry);
    return entry.metadata;
  }

  set(clientId: string, metadata: ClientMetadata, lifetimeSeconds: number, now: number): void {
    this.entries.delete(clientId);
    if (lifetimeSeconds <= 0) return;
    this.entries.set(clientId, { metadata, expiresAt: now + lifetimeSeconds * 1000 });
    while (this.entries.size > this.capacity) {
      const oldest = this.entries.keys().next().value as string;
      this.entries.delete(oldest);
    }
  }

  get size(): number {
    return this.entries.size;
  }
}
