import { type CryptoKey, importJWK, type JWK } from 'jose';
import { VerifierError } from './errors.ts';

/** The server-side verifier caches the key set one hour (docs/verifier.md, "Key caching"). */
export const JWKS_MAX_AGE_MS = 60 * 60 * 1000;
/**
 * After a fetch, an unknown `kid` waits this long before it may cause another: a flood of tokens
 * with made-up `kid`s costs the service at most one JWKS request per cooldown.
 */
export const REFETCH_COOLDOWN_MS = 30 * 1000;
const FETCH_TIMEOUT_MS = 5000;

export type Fetch = (input: string, init?: RequestInit) => Promise<Response>;

/**
 * The service's published keys, fetched with `fetch` and imported once as Web Crypto keys.
 *
 * - Cached {@link JWKS_MAX_AGE_MS}; an expired set is refetched by the next verification.
 * - An unknown `kid` refetches at once unless the last fetch started less than
 *   {@link REFETCH_COOLDOWN_MS} ago; then it fails without a request.
 * - Fetches are single-flight: concurrent callers share the one in flight.
 * - A failed refresh keeps the set it has (retried after the cooldown); with no set at all, it throws.
 */
export class RemoteKeySet {
  readonly #url: string;
  readonly #fetch: Fetch;
  readonly #now: () => number;
  #keys: Map<string, CryptoKey> | null = null;
  #fetchedAt = 0;
  #attemptedAt = Number.NEGATIVE_INFINITY;
  #lastError: unknown;
  #inFlight: Promise<void> | null = null;

  constructor(url: string, fetch: Fetch, now: () => number) {
    this.#url = url;
    this.#fetch = fetch;
    this.#now = now;
  }

  /** The key for `kid` when the cached set is fresh and holds it: no promise on the common path. */
  cached(kid: string | undefined): CryptoKey | undefined {
    if (kid === undefined || this.#now() - this.#fetchedAt >= JWKS_MAX_AGE_MS) return undefined;
    return this.#keys?.get(kid);
  }

  /** The key for `kid`, or undefined when the key set (after any refetch allowed) has none. */
  async get(kid: string | undefined): Promise<CryptoKey | undefined> {
    const now = this.#now();
    const coolingDown = now - this.#attemptedAt < REFETCH_COOLDOWN_MS;
    if (this.#keys === null) {
      if (coolingDown && this.#inFlight === null) {
        throw new VerifierError('JWKS_UNAVAILABLE', `The JWKS at ${this.#url} could not be fetched`, {
          cause: this.#lastError,
        });
      }
      await this.#refresh();
    } else if (now - this.#fetchedAt >= JWKS_MAX_AGE_MS && !coolingDown) {
      await this.#refresh().catch(() => undefined);
    }
    if (kid === undefined) return undefined;
    const key = this.#keys?.get(kid);
    if (key) return key;
    if (this.#inFlight) {
      await this.#inFlight;
    } else if (now - this.#attemptedAt >= REFETCH_COOLDOWN_MS) {
      await this.#refresh();
    }
    return this.#keys?.get(kid);
  }

  #refresh(): Promise<void> {
    if (this.#inFlight) return this.#inFlight;
    this.#attemptedAt = this.#now();
    this.#inFlight = this.#load()
      .then((keys) => {
        this.#keys = keys;
        this.#fetchedAt = this.#now();
      })
      .catch((error: unknown) => {
        this.#lastError = error;
        throw error instanceof VerifierError
          ? error
          : new VerifierError('JWKS_UNAVAILABLE', `The JWKS at ${this.#url} could not be fetched`, {
              cause: error,
            });
      })
      .finally(() => {
        this.#inFlight = null;
      });
    return this.#inFlight;
  }

  async #load(): Promise<Map<string, CryptoKey>> {
    const response = await this.#fetch(this.#url, {
      headers: { accept: 'application/json' },
      signal: AbortSignal.timeout(FETCH_TIMEOUT_MS),
    });
    if (!response.ok) {
      throw new VerifierError('JWKS_UNAVAILABLE', `The JWKS at ${this.#url} answered ${response.status}`);
    }
    const body = (await response.json()) as { keys?: unknown };
    if (!Array.isArray(body.keys)) {
      throw new VerifierError('JWKS_UNAVAILABLE', `The JWKS at ${this.#url} holds no "keys" array`);
    }
    const keys = new Map<string, CryptoKey>();
    for (const jwk of body.keys as JWK[]) {
      // RS256 only: any other key in the set is ignored, so it can never verify a token.
      if (jwk.kty !== 'RSA' || typeof jwk.kid !== 'string') continue;
      if ((jwk.alg ?? 'RS256') !== 'RS256' || (jwk.use ?? 'sig') !== 'sig') continue;
      keys.set(jwk.kid, (await importJWK({ ...jwk, ext: false }, 'RS256')) as CryptoKey);
    }
    return keys;
  }
}
