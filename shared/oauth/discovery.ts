/**
 * The discovery documents: how an MCP client finds, from the endpoint
 * it was given, the authorization server (RFC 9728 protected resource metadata) and from there how
 * to authorize (RFC 8414 authorization server metadata). docs/oauth.md "Discovery" explains them.
 * Built from the configuration alone: the static documents' bundles hold no SDK client.
 */

import { serviceUrl } from '../service-url.ts';
import { SCOPES } from './model.ts';

/** RFC 8414 §2 metadata of this authorization server. Static: it depends on the configuration alone. */
export function authorizationServerMetadata(issuer: string) {
  return {
    // RFC 8414 §3.3: identical to the `iss` of the tokens and of the authorization response (RFC 9207).
    issuer,
    authorization_endpoint: serviceUrl(issuer, '/oauth/authorize'),
    token_endpoint: serviceUrl(issuer, '/oauth/token'),
    jwks_uri: serviceUrl(issuer, '/.well-known/jwks.json'),
    response_types_supported: ['code'],
    response_modes_supported: ['query'],
    grant_types_supported: ['authorization_code', 'refresh_token'],
    // OAuth 2.1 §4.1.1: S256 only; `plain` is refused.
    code_challenge_methods_supported: ['S256'],
    // Public clients only: no client secret is ever issued or accepted.
    token_endpoint_auth_methods_supported: ['none'],
    // RFC 7009 via RFC 8414 §2: a client ends a refresh or access token (and its grant) itself.
    revocation_endpoint: serviceUrl(issuer, '/oauth/revoke'),
    revocation_endpoint_auth_methods_supported: ['none'],
    scopes_supported: [...SCOPES],
    client_id_metadata_document_supported: true,
    authorization_response_iss_parameter_supported: true,
  };
}

/** RFC 9728 §2 metadata of `resource`, protected by this server. */
export function protectedResourceMetadata(issuer: string, resource: string) {
  return {
    resource,
    authorization_servers: [issuer],
    scopes_supported: [...SCOPES],
    // The MCP endpoint reads the access token from the Authorization header only (RFC 6750 §2.1).
    bearer_methods_supported: ['header'],
  };
}

/** The `/mcp` path on this host (docs/oauth.md, Discovery). */
export const serviceResourceMetadata = (issuer: string) =>
  protectedResourceMetadata(issuer, serviceUrl(issuer, '/mcp'));
