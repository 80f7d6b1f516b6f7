import * as z from 'zod/mini';

/** RFC 8414 §2: the authorization server metadata this server publishes (docs/api.md, OAuth discovery). */
export const AuthorizationServerMetadata = z.object({
  issuer: z.string(),
  authorization_endpoint: z.string(),
  token_endpoint: z.string(),
  jwks_uri: z.string(),
  response_types_supported: z.array(z.string()),
  response_modes_supported: z.array(z.string()),
  grant_types_supported: z.array(z.string()),
  code_challenge_methods_supported: z.array(z.string()),
  token_endpoint_auth_methods_supported: z.array(z.string()),
  revocation_endpoint: z.string(),
  revocation_endpoint_auth_methods_supported: z.array(z.string()),
  scopes_supported: z.array(z.string()),
  client_id_metadata_document_supported: z.boolean(),
  authorization_response_iss_parameter_supported: z.boolean(),
});

/**
 * RFC 9728 §2: protected resource metadata (docs/api.md, OAuth discovery: `resource`,
 * `authorization_servers`, `scopes_supported`).
 */
export const ProtectedResourceMetadata = z.object({
  resource: z.string(),
  authorization_servers: z.array(z.string()),
  scopes_supported: z.array(z.string()),
  bearer_methods_supported: z.array(z.string()),
});

/** `id` is an application ID (docs/api.md, OAuth discovery). */
export const ProtectedResourcePath = z.object({ id: z.string().check(z.minLength(1), z.maxLength(100)) });
