/**
 * Client ID metadata documents (the OAuth Client ID Metadata Document draft): a
 * public client is named by the https URL of a JSON document that lists its redirect URIs. The URL
 * is checked before anything is fetched, the fetch reaches only the address that was checked, and
 * every refusal is `invalid_client` (never redirected). docs/oauth.md states the rules.
 */
import type { Config } from '../config.ts';
import type { Deps } from '../deps.ts';
import { fail } from '../errors.ts';
import { type FetchOptions, type FetchRefusal, fetchMetadataDocument } from '../net/metadata-fetch.ts';
import { MetadataCache, metadataLifetimeSeconds } from './metadata-cache.ts';
import type { ClientMetadata } from './model.ts';
import { redirectUriRefusal } from './redirect-uri.ts';

/** Longest `client_id` accepted: a URL, not a payload. */
const MAX_CLIENT_ID_LENGTH = 2048;

/**
 * Why a client was refused, in `details.reason` (logged, and what tests assert; an OAuth error
 * body carries only `error` and `error_description`).
 */
export type ClientRefusal =
  | 'client-id-too-long'
  | 'client-id-not-https'
  | 'client-id-fragment'
  | 'client-id-invalid'
  | 'client-id-userinfo'
  | 'client-id-dot-segment'
  | 'client-id-no-path'
  | 'not-an-object'
  | 'client-id-mismatch'
  | 'redirect-uris-missing'
  | 'redirect-uri-invalid'
  | 'auth-method'
  | 'client-secret'
  | FetchRefusal;

/** The raw path of an absolute URL string (between the authority and `?`), as sent. */
function rawPath(raw: string): string {
  const afterScheme = raw.slice(raw.indexOf('//') + 2);
  const slash = afterScheme.search(/[/\\]/);
  if (slash < 0) return '';
  return afterScheme.slice(slash).split('?')[0] ?? '';
}

/**
 * The `client_id` as a URL, checked on the raw string before any fetch: https, a host, a path
 * other than `/`, no fragment, no userinfo, no dot segments (the draft's rules; `new URL` would
 * silently remove dot segments, so the raw string is read).
 */
function clientIdUrl(clientId: string): URL {
  if (clientId.length > MAX_CLIENT_ID_LENGTH)
    refuseThrow('client-id-too-long', `client_id is longer than ${MAX_CLIENT_ID_LENGTH}`);
  if (!/^https:\/\//i.test(clientId)) refuseThrow('client-id-not-https', 'client_id must be an https URL');
  if (clientId.includes('#')) refuseThrow('client-id-fragment', 'client_id must not contain a fragment');
  const url = URL.parse(clientId);
  if (url?.protocol !== 'https:' || url.hostname === '')
    refuseThrow('client-id-invalid', 'client_id is not a valid https URL');
  const authority = clientId.slice('https://'.length).split(/[/\\?]/)[0] ?? '';
  // WHATWG URL reads `https:///x` as host `x`: the raw string must name its host itself.
  if (authority === '') refuseThrow('client-id-invalid', 'client_id has no host');
  if (authority.includes('@') || url.username !== '' || url.password !== '') {
    refuseThrow('client-id-userinfo', 'client_id must not contain userinfo');
  }
  const segments = rawPath(clientId).split(/[/\\]/);
  if (segments.some((segment) => ['.', '..'].includes(segment.toLowerCase().replaceAll('%2e', '.')))) {
    refuseThrow('client-id-dot-segment', 'client_id must not contain dot segments');
  }
  // WHATWG URL drops tabs and newlines and turns `\` into `/`: the URL fetched would not be the one named.
  if ([...clientId].some((char) => char <= ' ' || char === '\u007f' || char === '\\')) {
    refuseThrow('client-id-invalid', 'client_id contains a space, a control character or a backslash');
  }
  if (url.pathname === '/' || url.pathname === '')
    refuseThrow('client-id-no-path', 'client_id must have a path other than /');
  return url;
}

function refuseThrow(reason: ClientRefusal, message: string): never {
  throw fail('invalidClient', message, { reason });
}

/**
 * A listed value as an error description may show it: at most 100 characters of printable ASCII
 * without `"` and `\` (RFC 6749 §5.2's set for `error_description`), anything else as `?`.
 */
function shownValue(value: unknown): string {
  const text = typeof value === 'string' ? value : (JSON.stringify(value) ?? String(value));
  const printable = text.replace(/[^\x20-\x21\x23-\x5b\x5d-\x7e]/g, '?');
  return printable.length > 100 ? `${printable.slice(0, 100)}...` : printable;
}

const optionalHttpsUrl = (value: unknown): string | undefined =>
  typeof value === 'string' && URL.parse(value)?.protocol === 'https:' ? value : undefined;

/** The document's fields the server relies on, validated; the rest is ignored. */
function parseClientMetadata(document: unknown, clientId: string, url: URL): ClientMetadata {
  if (typeof document !== 'object' || document === null || Array.isArray(document)) {
    refuseThrow('not-an-object', 'the client metadata document is not a JSON object');
  }
  const fields = document as Record<string, unknown>;
  if (fields.client_id !== clientId) {
    refuseThrow('client-id-mismatch', 'the client metadata document names another client_id than its URL');
  }
  const redirectUris = fields.redirect_uris;
  if (!Array.isArray(redirectUris) || redirectUris.length === 0) {
    refuseThrow('redirect-uris-missing', 'the client metadata document must list redirect_uris');
  }
  for (const [index, value] of redirectUris.entries()) {
    const why = redirectUriRefusal(value);
    if (why !== null) {
      refuseThrow('redirect-uri-invalid', `redirect_uris[${index}] (${shownValue(value)}) ${why}`);
    }
  }
  // Public clients only: a document that claims a secret is a confidential client.
  const method = fields.token_endpoint_auth_method;
  if (method !== undefined && method !== 'none') {
    refuseThrow(
      'auth-method',
      'token_endpoint_auth_method must be none: this server has public clients only',
    );
  }
  if (fields.client_secret !== undefined)
    refuseThrow('client-secret', 'a client metadata document must not carry a client_secret');
  const name = typeof fields.client_name === 'string' ? fields.client_name.trim() : '';
  const clientUri = optionalHttpsUrl(fields.client_uri);
  const logoUri = optionalHttpsUrl(fields.logo_uri);
  return {
    clientId,
    clientName: name === '' ? url.host : name.slice(0, 200),
    redirectUris,
    ...(clientUri ? { clientUri } : {}),
    ...(logoUri ? { logoUri } : {}),
  };
}

/** One cache per configuration, that is per container (tests build one per test app). */
const caches = new WeakMap<Config, MetadataCache>();
function cacheOf(config: Config): MetadataCache {
  let cache = caches.get(config);
  if (!cache) {
    cache = new MetadataCache();
    caches.set(config, cache);
  }
  return cache;
}

/**
 * The client's metadata from the document at `clientId`, from the container's cache while the
 * document's `Cache-Control` allows (metadata-cache.ts). Throws `invalidClient` for every refusal:
 * a bad URL, a special-use address, a failed or refused fetch, a bad document; none is cached.
 */
export async function loadClientMetadata(
  deps: Pick<Deps, 'config' | 'logger' | 'clock'>,
  clientId: string,
  options: FetchOptions = {},
): Promise<ClientMetadata> {
  const url = clientIdUrl(clientId);
  const cache = cacheOf(deps.config);
  const cached = cache.get(clientId, deps.clock.now());
  if (cached) return cached;
  const fetched = await fetchMetadataDocument(url, {
    allowLoopback: deps.config.OAUTH_METADATA_ALLOW_LOOPBACK,
    caFile: deps.config.OAUTH_METADATA_CA_FILE,
    ...options,
  });
  if (!fetched.ok) {
    deps.logger.log('info', 'client metadata refused', { host: url.host, reason: fetched.reason });
    refuseThrow(fetched.reason, fetched.message);
  }
  const metadata = parseClientMetadata(fetched.document, clientId, url);
  cache.set(clientId, metadata, metadataLifetimeSeconds(fetched.cacheControl), deps.clock.now());
  return metadata;
}
