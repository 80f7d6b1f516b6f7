import { issueAuthorizationCode } from '../../shared/oauth/codes.ts';
import type { Scope } from '../../shared/oauth/model.ts';
import { ownMcpResource } from '../../shared/tenancy/service-resources.ts';
import type { TestApp } from './app.ts';
import type { TestResponse } from './http-client.ts';
import { pkce, postForm } from './oauth-authorize.ts';

/** A public client as the authorize route would have read it from its client ID metadata document. */
export const CLIENT = {
  clientId: 'https://client.example.test/oauth/client.json',
  clientName: 'Example Agent',
  redirectUri: 'http://127.0.0.1:43117/callback',
};

/**
 * An authorization code as consent issues it (the authorize route lands separately), for `userId`
 * on the application's own MCP endpoint (or `resource`, one the application registered), with its
 * verifier and the request fields that match it.
 */
export async function newCode(
  app: TestApp,
  input: { userId: string; applicationId: string; scopes?: Scope[]; clientId?: string; resource?: string },
) {
  const { verifier, challenge } = pkce();
  const resource = input.resource ?? ownMcpResource(app.deps.config.ISSUER, input.applicationId);
  const clientId = input.clientId ?? CLIENT.clientId;
  const code = await issueAuthorizationCode(app.deps, {
    clientId,
    clientName: CLIENT.clientName,
    redirectUri: CLIENT.redirectUri,
    codeChallenge: challenge,
    resource,
    applicationId: input.applicationId,
    userId: input.userId,
    scopes: input.scopes ?? ['auth:read', 'auth:write'],
  });
  return {
    code,
    verifier,
    resource,
    fields: {
      grant_type: 'authorization_code',
      code,
      code_verifier: verifier,
      client_id: clientId,
      redirect_uri: CLIENT.redirectUri,
      resource,
    },
  };
}

/** POST /oauth/token with a form body (docs/oauth.md, "Token endpoint"). */
export const tokenRequest = (
  app: TestApp,
  fields: Record<string, string>,
  headers: Record<string, string> = {},
): Promise<TestResponse> =>
  postForm(app, '/oauth/token', fields, { 'content-type': 'application/x-www-form-urlencoded', ...headers });

/** A refresh of `refreshToken` (with extra fields, e.g. `scope`). */
export const refreshRequest = (app: TestApp, refreshToken: string, extra: Record<string, string> = {}) =>
  tokenRequest(app, { grant_type: 'refresh_token', refresh_token: refreshToken, ...extra });

/** A code exchanged: the token answer of a fresh grant. */
export async function connect(app: TestApp, input: Parameters<typeof newCode>[1]) {
  const issued = await newCode(app, input);
  const response = await tokenRequest(app, issued.fields);
  if (response.status !== 200) throw new Error(`token answered ${response.status}: ${response.text}`);
  return { ...issued, tokens: response.body as TokenBody };
}

interface TokenBody {
  access_token: string;
  token_type: string;
  expires_in: number;
  refresh_token: string;
  scope: string;
}

/** RFC 6749 §5.2: an OAuth error answer with `error` (and nothing of the platform envelope). */
export function oauthErrorOf(response: TestResponse) {
  return {
    status: response.status,
    error: response.body?.error,
    cacheControl: response.headers['cache-control'],
  };
}
