import * as z from 'zod/mini';
import { Page } from './common.ts';

const field = z.optional(z.string());

/** A public client's id: the URL of its client ID metadata document (docs/oauth.md). */
const EXAMPLE_CLIENT = 'https://client.example.com/oauth/client.json';

/**
 * TokenRequest (form fields; docs/api.md, OAuth tokens and connections). Every field is optional
 * here: the token endpoint itself says which is missing for the grant, as an RFC 6749
 * `invalid_request`. `scope` may narrow a refresh; `client_secret` is read only to refuse it
 * (public clients only).
 */
export const TokenForm = z
  .object({
    grant_type: field,
    code: field,
    code_verifier: field,
    client_id: field,
    redirect_uri: field,
    resource: field,
    refresh_token: field,
    scope: field,
    client_secret: field,
  })
  // The document's example is a request a client sends: a code exchange, without the secret this
  // server only refuses. Codes and refresh tokens are opaque (256 random bits, base64url).
  .register(z.globalRegistry, {
    example: {
      grant_type: 'authorization_code',
      code: 'Q2hhbmdlZCBteSBtaW5kOyB0aGlzIGlzIGEgY29kZS4',
      code_verifier: 'dBjftJeZ4CVP-mB92K27uhbUJU1p1r_wW1gFWFOEjXk',
      client_id: EXAMPLE_CLIENT,
      redirect_uri: 'http://127.0.0.1:43117/callback',
      resource: 'https://auth.example.com/mcp/app_3k9fQ2mX7rLpT1vBw8ZcYa',
    },
  });
export type TokenForm = z.infer<typeof TokenForm>;

/**
 * RFC 7009 §2.1 (docs/api.md, OAuth tokens and connections): the `token` and the public client's
 * `client_id` (§5) are required; any `token_type_hint` is taken, as the RFC's search goes on over
 * every type; `client_secret` is read only to refuse it.
 */
const required = (name: string) =>
  z.string(`${name} is required`).check(z.minLength(1, `${name} is required`));
export const RevocationForm = z
  .object({
    token: required('token'),
    token_type_hint: field,
    client_id: required('client_id'),
    client_secret: field,
  })
  .register(z.globalRegistry, {
    example: {
      token: 'uV2sX8b1kQpZ0cJtR4yW7nLhA9eDfGmS3oTiKvBxCqE',
      token_type_hint: 'refresh_token',
      client_id: EXAMPLE_CLIENT,
    },
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
