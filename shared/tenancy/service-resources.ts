/**
 * OAuth resources (RFC 8707) on this service's own origin. The service serves one per application,
 * its MCP endpoint `<ISSUER>/mcp/<applicationId>` (docs/oauth.md, Discovery:
 * `/.well-known/oauth-protected-resource/mcp/{id}`), and it belongs to that application alone: any
 * other application registering it (or any other URI on the service's origin) would squat a
 * resource the service itself vouches for, answering the rightful application 409 and sending its
 * OAuth flows to the squatter.
 */
import { serviceUrl } from '../service-url.ts';
/**
 * The application's own MCP resource `<ISSUER>/mcp/<applicationId>`, in the form the configuration
 * stores: the `resource` of its protected resource metadata and the `aud` of its access tokens.
 */
export const ownMcpResource = (issuer: string, applicationId: string): string =>
  new URL(serviceUrl(issuer, `/mcp/${encodeURIComponent(applicationId)}`)).href;

/**
 * A `resource` parameter (RFC 8707) in the one spelling the configuration stores and tokens carry
 * as `aud`: the WHATWG URL serialization (lower-case scheme and host, default port left out, an
 * empty path written `/`; RFC 3986 §6.2.2 and §6.2.3 call these spellings equivalent), so
 * `https://API.example:443/mcp` is `https://api.example/mcp`. The path is kept as given: `/mcp`
 * and `/mcp/` stay two resources. Null for what is not an absolute URI, or has a fragment (RFC 8707
 * §2) or user info. docs/oauth.md, "Resources of other servers", states the rule.
 */
export function canonicalResource(text: string): string | null {
  if (text.includes('#') || !/^[a-z][a-z\d+.-]*:\/\//i.test(text)) return null;
  // A URL parser drops spaces, tabs and newlines and reads a backslash as `/`: that would be another URI.
  if ([...text].some((char) => char <= ' ' || char === '\u007f' || char === '\\')) return null;
  const url = URL.parse(text);
  if (url === null) return null;
  if (url.username !== '' || url.password !== '' || url.host === '') return null;
  return url.href;
}

/**
 * Whether `uri` (stored form) is on the service's own origin (its host and port, whatever the scheme:
 * locally the issuer is `http://`) and is not `applicationId`'s own MCP resource.
 */
export function isForeignServiceResource(issuer: string, applicationId: string, uri: string): boolean {
  return new URL(uri).host === new URL(issuer).host && uri !== ownMcpResource(issuer, applicationId);
}
