import { describe, expect, it } from 'vitest';
import {
  DEFAULT_METADATA_TTL_SECONDS,
  MAX_METADATA_TTL_SECONDS,
  METADATA_CACHE_ENTRIES,
  MetadataCache,
  metadataLifetimeSeconds,
} from '../../shared/oauth/metadata-cache.ts';
import type { ClientMetadata } from '../../shared/oauth/model.ts';

const client = (n: number): ClientMetadata => ({
  clientId: `https://agent.example.com/${n}.json`,
  clientName: `Agent ${n}`,
  redirectUris: ['http://127.0.0.1/cb'],
});

describe('metadataLifetimeSeconds', () => {
  it.each<[string | undefined, number]>([
    [undefined, DEFAULT_METADATA_TTL_SECONDS],
    ['', DEFAULT_METADATA_TTL_SECONDS],
    ['public', DEFAULT_METADATA_TTL_SECONDS],
    ['max-age=600', 600],
    ['public, Max-Age=120', 120],
    ['max-age="90"', 90],
    ['max-age=0', 0],
    ['max-age=-5', 0],
    ['max-age=soon', 0],
    ['max-age=999999999', MAX_METADATA_TTL_SECONDS],
    ['no-store', 0],
    ['max-age=600, no-cache', 0],
    ['NO-STORE', 0],
  ])('Cache-Control %s keeps a document %i s', (cacheControl, seconds) => {
    expect(metadataLifetimeSeconds(cacheControl)).toBe(seconds);
  });
});

describe('MetadataCache', () => {
  it('forgets an entry at its expiry', () => {
    // Prepare
    const cache = new MetadataCache();
    cache.set(client(1).clientId, client(1), 10, 0);

    // Act
    const found = [cache.get(client(1).clientId, 9_999), cache.get(client(1).clientId, 10_000)];

    // Assess
    expect(found).toEqual([client(1), undefined]);
  });

  it(`holds at most ${METADATA_CACHE_ENTRIES} entries, dropping the least recently used`, () => {
    // Prepare
    const cache = new MetadataCache();
    for (let n = 0; n < METADATA_CACHE_ENTRIES; n += 1) cache.set(client(n).clientId, client(n), 60, 0);
    cache.get(client(0).clientId, 1);

    // Act
    cache.set(client(1000).clientId, client(1000), 60, 2);

    // Assess
    expect(cache.size).toBe(METADATA_CACHE_ENTRIES);
    expect(cache.get(client(0).clientId, 3)).toEqual(client(0));
    expect(cache.get(client(1).clientId, 3)).toBeUndefined();
    expect(cache.get(client(1000).clientId, 3)).toEqual(client(1000));
  });

  it('stores nothing for a zero lifetime and drops what it held', () => {
    // Prepare
    const cache = new MetadataCache();
    cache.set(client(1).clientId, client(1), 60, 0);

    // Act
    cache.set(client(1).clientId, client(1), 0, 1);

    // Assess
    expect(cache.get(client(1).clientId, 2)).toBeUndefined();
  });
});
