/**
 * OAuth resources (RFC 8707) on this service's own origin. The service serves one per application,
 * its MCP endpoint `<ISSUER>/mcp/<applicationId>` (SPEC §4, `/.well-known/oauth-protected-resource/mcp/{id}`),
 * and it belongs to that application alone: any other application registering it (or any other
 * URI on the service's origin) would squat a resource the service itself vouches for, answering the
 * rightful application 409 and sending its OAuth flows to the squatter.
 */
import { serviceUrl } from '../service-url.ts';
/**
 * The application's own MCP resource `<ISSUER>/mcp/<applicationId>`, in the form the configuration
 * stores: the `resource` of its protected resource metadata and the `aud` of its access tokens.
 */
export const ownMcpResource = (issuer: string, applicationId: string): string =>
  new URL(serviceUrl(issuer, `/mcp/${encodeURIComponent(applicationId)}`)).href;

/**
 * Whether `uri` (stored form) is on the service's own origin (its host and port, whatever the scheme:
 * locally the issuer is `http://`) and is not `applicationId`'s own MCP resource.
 */
export function isForeignServiceResource(issuer: string, applicationId: string, uri: string): boolean {
  return new URL(uri).host === new URL(issuer).host && uri !== ownMcpResource(issuer, applicationId);
}
