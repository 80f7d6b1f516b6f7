import * as z from 'zod/mini';
import { Page } from './common.ts';

const field = z.optional(z.string());

/**
 * TokenRequest (form fields; docs/api.md, OAuth tokens and connections). Every field is optional
 * here: the token endpoint itself says which is missing for the grant, as an RFC 6749
 * `invalid_request`. `scope` may narrow a refresh; `client_secret` is read only to refuse it
 * (public clients only).
 */
export const TokenForm = z.object({
  grant_type: field,
  code: field,
  code_verifier: field,
  client_id: field,
  redirect_uri: field,
  resource: field,
  refresh_token: field,
  scope: field,
  client_secret: field,
});
export type TokenForm = z.infer<typeof TokenForm>;

/**
 * RFC 7009 §2.1 (docs/api.md, OAuth tokens and connections): `token` is checked by the endpoint
 * itself (an RFC 6749 `invalid_request` when missing); any `token_type_hint` is taken, as the RFC's
 * search goes on over every type; `client_id` identifies a public client; `client_secret` is read
 * only to refuse it.
 */
export const RevocationForm = z.object({
  token: field,
  token_type_hint: field,
  client_id: field,
  client_secret: field,
});
export type RevocationForm = z.infer<typeof RevocationForm>;

/** The token endpoint reads `Authorization` only to refuse client authentication (public clients only). */
export const TokenHeaders = z.object({ authorization: z.optional(z.string()) });

/** RFC 6749 §5.1. */
export const TokenResponse = z.object({
  access_token: z.string(),
  token_type: z.literal('Bearer'),
  expires_in: z.int(),
  refresh_token: z.string(),
  scope: z.string(),
});

/** Connection (docs/api.md, OAuth tokens and connections): an OAuth grant the user authorized and has not revoked. */
const Connection = z.object({
  id: z.string(),
  clientId: z.string(),
  clientName: z.string(),
  applicationId: z.string(),
  resource: z.string(),
  scopes: z.array(z.string()),
  createdAt: z.string(),
  lastUsedAt: z.string(),
});

export const ConnectionList = z.object({ items: z.array(Connection), page: Page });

export const RevokeConnectionBody = z.object({ id: z.string().check(z.minLength(1), z.maxLength(200)) });

export const ConnectionRevoked = z.object({ revoked: z.boolean() });
