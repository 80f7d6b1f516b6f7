/**
 * Redirect URI matching (OAuth 2.1 §2.3.1 and §8.4.2, RFC 9700 §4.1): the requested URI must equal
 * one the client's metadata document lists, character for character, with one exception: a
 * loopback redirect URI (`http://127.0.0.1`, `http://[::1]`, `http://localhost`) matches on any
 * port (RFC 8252 §7.3: a native app gets its port from the OS when it listens), its scheme, host,
 * path and query otherwise equal. No normalisation: a URI that differs in case, a trailing slash, a
 * query or userinfo is another URI.
 */

/** RFC 8252 §7.3: plain http only to the loopback interface, where no one else can listen. */
const LOOPBACK_HOSTS = new Set(['127.0.0.1', '[::1]', 'localhost']);

/**
 * Why a client may not list `value` as a redirect URI, or null when it may. An allow-list (RFC 8252
 * §7, https://www.rfc-editor.org/rfc/rfc8252#section-7, which OAuth 2.1 takes over):
 * - `https` with a host;
 * - `http` only on a loopback host (§7.3), where the code cannot travel in clear to anyone else;
 * - a private-use scheme in reverse-domain form, that is with a period (§7.1, `com.example.app:/cb`).
 * Anything else is refused: the schemes a browser or the OS handles itself (`ftp:`, `view-source:`,
 * `javascript:`, `data:`, `file:`, `mailto:`…), which no deny-list lists completely, and single-word
 * schemes (`myapp:`), which any app on the device may claim. The URI is absolute (RFC 3986 §4.3: no
 * fragment), without spaces or control characters (a URL parser drops them, so the URI that would be
 * used is not the one listed).
 */
export function redirectUriRefusal(value: unknown): string | null {
  if (typeof value !== 'string') return 'is not a string';
  if (value.includes('#')) return 'contains a fragment';
  if ([...value].some((char) => char <= ' ' || char === '\u007f')) {
    return 'contains a space or a control character';
  }
  const scheme = /^([a-z][a-z0-9+.-]*):/i.exec(value)?.[1]?.toLowerCase();
  const url = URL.parse(value);
  if (scheme === undefined || url === null) return 'is not an absolute URI';
  // The raw string names its host itself: a URL parser reads `https:x` and `https:///x` as host `x`.
  const authority = /^[a-z]+:\/\/[^/?\\]/i.test(value);
  if (scheme === 'https') return authority && url.hostname !== '' ? null : 'is https without a host';
  if (scheme === 'http') {
    return authority && LOOPBACK_HOSTS.has(url.hostname)
      ? null
      : 'is http on a host other than 127.0.0.1, [::1] or localhost';
  }
  if (scheme.includes('.')) return null;
  return `has the scheme ${scheme}:, which is not https, http on a loopback host, or a private-use scheme in reverse-domain form such as com.example.app:`;
}

/** `http://<loopback host>[:port]<rest>`, read on the raw string: the host must end at `:`, `/`, `?` or the end. */
const LOOPBACK = /^http:\/\/(127\.0\.0\.1|\[::1\]|localhost)(?::(\d{1,5}))?([/?].*)?$/;

/** The loopback URI without its port, or null when `uri` is not a loopback redirect URI. */
function withoutPort(uri: string): string | null {
  const match = LOOPBACK.exec(uri);
  if (!match || !URL.canParse(uri)) return null;
  const port = match[2];
  if (port !== undefined && (Number(port) < 1 || Number(port) > 65535)) return null;
  return `http://${match[1]}${match[3] ?? ''}`;
}

/** Whether `requested` is one of the `registered` redirect URIs under the rule above. */
export function matchesRedirectUri(registered: readonly string[], requested: string): boolean {
  if (registered.includes(requested)) return true;
  const loopback = withoutPort(requested);
  return loopback !== null && registered.some((uri) => withoutPort(uri) === loopback);
}

/**
 * `redirectUri` with the authorization response's parameters added to its query (RFC 6749 §4.1.2:
 * the URI's own query is kept). Values are form-encoded.
 */
export function redirectWith(redirectUri: string, parameters: Record<string, string | undefined>): string {
  // Appended to the URI as registered, byte for byte: re-serializing its query through URLSearchParams
  // would rewrite the client's own (`%20` to `+`, `flag` to `flag=`), which an exact-matching client refuses.
  const added = new URLSearchParams();
  for (const [name, value] of Object.entries(parameters)) {
    if (value !== undefined) added.append(name, value);
  }
  const query = added.toString();
  if (!query) return redirectUri;
  return `${redirectUri}${redirectUri.includes('?') ? (redirectUri.endsWith('?') || redirectUri.endsWith('&') ? '' : '&') : '?'}${query}`;
}

/**
 * The CSP source that lets the consent form's 303 reach `redirectUri` (Chromium applies
 * `form-action` to a redirect's target): its origin, or its scheme for a private-use URI scheme.
 */
export function formTargetOf(redirectUri: string): string {
  const url = new URL(redirectUri);
  return url.origin !== 'null' ? url.origin : url.protocol;
}

/**
 * Where a redirect URI leads, as a page tells the user: the host of an `http(s)` URI; for a
 * private-use scheme (RFC 8252 §7.1), whose URL may have no host, the scheme and the host if any
 * (`com.example.app:`, `cursor://anysphere.cursor-mcp`). Never empty.
 */
export function redirectTargetLabel(redirectUri: string): string {
  const url = new URL(redirectUri);
  if (url.protocol === 'https:' || url.protocol === 'http:') return url.host;
  return url.host ? `${url.protocol}//${url.host}` : url.protocol;
}
