import * as oauth from 'oauth4webapi';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { freePort } from '../../shared/local/ports.ts';
import { startTestApp, type TestApp } from '../support/app.ts';
import {
  type ClientMetadataServer,
  metadataEnv,
  startClientMetadataServer,
} from '../support/client-metadata-server.ts';
import { mcpPost } from '../support/mcp.ts';
import { authorizeInBrowser, type Browser, newBrowser } from '../support/oauth-flow.ts';
import { bearer } from '../support/sign-in.ts';
import { createOwnedApplication } from '../support/tenancy.ts';

/**
 * `oauth4webapi` (a certified OAuth client library) end to end against the local runtime (docs/oauth.md):
 * authorization server metadata (RFC 8414) and protected resource metadata (RFC 9728) discovery, the code
 * flow with PKCE S256 and `resource` (RFC 8707), the `iss` check of RFC 9207 (and its refusal of a wrong
 * `iss`), the code exchange, and refresh rotation with the late replay that revokes the whole family
 * (docs/oauth.md, "Refresh rotation"). The user's side is driven over HTTP by test/support/oauth-flow.ts.
 *
 * `allowInsecureRequests`: the library talks to https endpoints only, and the service's local
 * issuer is `http://127.0.0.1:<port>` (the local runtime serves plain HTTP on loopback). The option
 * is set here, in the test only, on each request to that issuer; nothing else is relaxed.
 */
const insecure = { [oauth.allowInsecureRequests]: true } as const;

let metadata: ClientMetadataServer;
let app: TestApp;
let owned: Awaited<ReturnType<typeof createOwnedApplication>>;
let issuer: URL;
let resource: URL;
let redirectUri: string;
let client: oauth.Client;
/**
 * The owner's one browser: it signs in on the bridge at the first authorization and keeps its
 * session cookie, so later ones go straight to consent (and stay under the per-address code limit).
 */
let browser: Browser;

beforeAll(async () => {
  metadata = await startClientMetadataServer();
  const port = await freePort();
  app = await startTestApp({ port, env: { ...metadataEnv(metadata), ISSUER: `http://127.0.0.1:${port}` } });
  redirectUri = `http://127.0.0.1:${await freePort()}/callback`;
  const clientId = metadata.serveClient('/client.json', {
    client_name: 'oauth4webapi client',
    redirect_uris: [redirectUri],
    grant_types: ['authorization_code', 'refresh_token'],
    response_types: ['code'],
  });
  client = { client_id: clientId, token_endpoint_auth_method: 'none' };
  owned = await createOwnedApplication(app, 'Acme Notes');
  issuer = new URL(app.deps.config.ISSUER);
  resource = new URL(`${app.url}/mcp/${owned.applicationId}`);
  browser = newBrowser();
}, 60_000);
afterAll(async () => {
  await app?.close();
  await metadata?.close();
});

/** RFC 8414 discovery of the issuer's metadata, validated by the library (its `issuer` included). */
async function discover(): Promise<oauth.AuthorizationServer> {
  const response = await oauth.discoveryRequest(issuer, { algorithm: 'oauth2', ...insecure });
  return oauth.processDiscoveryResponse(issuer, response);
}

/** The authorization URL of a code flow with PKCE S256 and `resource`, and what the callback needs. */
async function authorizationRequest(as: oauth.AuthorizationServer) {
  const verifier = oauth.generateRandomCodeVerifier();
  const state = oauth.generateRandomState();
  const url = new URL(String(as.authorization_endpoint));
  url.search = new URLSearchParams({
    response_type: 'code',
    client_id: client.client_id,
    redirect_uri: redirectUri,
    code_challenge: await oauth.calculatePKCECodeChallenge(verifier),
    code_challenge_method: 'S256',
    resource: resource.href,
    scope: 'auth:read auth:write',
    state,
  }).toString();
  return { url, verifier, state };
}

/** A whole authorization: the user signs in and approves; the library checks the answer and exchanges the code. */
async function authorize(as: oauth.AuthorizationServer) {
  const request = await authorizationRequest(as);
  const answer = await authorizeInBrowser(app, request.url, owned.owner.email, { browser });
  const params = oauth.validateAuthResponse(as, client, answer.url, request.state);
  const response = await oauth.authorizationCodeGrantRequest(
    as,
    client,
    oauth.None(),
    params,
    redirectUri,
    request.verifier,
    { additionalParameters: { resource: resource.href }, ...insecure },
  );
  return oauth.processAuthorizationCodeResponse(as, client, response);
}

const refresh = async (as: oauth.AuthorizationServer, refreshToken: string) =>
  oauth.processRefreshTokenResponse(
    as,
    client,
    await oauth.refreshTokenGrantRequest(as, client, oauth.None(), refreshToken, insecure),
  );

/** The refusal a promise ends with (null if it succeeded). */
const refusalOf = (promise: Promise<unknown>) =>
  promise.then(
    () => null,
    (error: unknown) => error,
  );

/** The claims of a JWT, read without verifying (the MCP endpoint verifies; here we look). */
const claimsOf = (jwt: string) =>
  JSON.parse(Buffer.from(jwt.split('.')[1] ?? '', 'base64url').toString('utf8')) as Record<string, unknown>;

describe('oauth4webapi against the local runtime', () => {
  it('discovers the authorization server (RFC 8414) and the MCP endpoint as a protected resource (RFC 9728)', async () => {
    // Act
    const as = await discover();
    const rs = await oauth.processResourceDiscoveryResponse(
      resource,
      await oauth.resourceDiscoveryRequest(resource, insecure),
    );

    // Assess
    expect(as.issuer).toBe(issuer.href.replace(/\/$/, ''));
    expect(as.authorization_endpoint).toBe(`${app.url}/oauth/authorize`);
    expect(as.token_endpoint).toBe(`${app.url}/oauth/token`);
    expect(as.code_challenge_methods_supported).toEqual(['S256']);
    expect(as.authorization_response_iss_parameter_supported).toBe(true);
    expect(as.client_id_metadata_document_supported).toBe(true);
    expect(rs.resource).toBe(resource.href);
    expect(rs.authorization_servers).toEqual([as.issuer]);
    expect(rs.scopes_supported).toEqual(expect.arrayContaining(['auth:read', 'auth:write']));
  });

  it('runs the code flow with PKCE S256 and resource, the iss check passing, and gets a token for that one resource', async () => {
    // Prepare
    const as = await discover();

    // Act
    const tokens = await authorize(as);

    // Assess
    expect(tokens.token_type.toLowerCase()).toBe('bearer');
    expect(tokens.expires_in).toBe(3600);
    expect(tokens.refresh_token).toEqual(expect.any(String));
    expect(tokens.scope?.split(' ').sort()).toEqual(['auth:read', 'auth:write']);
    expect(claimsOf(tokens.access_token)).toMatchObject({
      iss: as.issuer,
      aud: resource.href,
      client_id: client.client_id,
      scope: 'auth:read auth:write',
    });
  }, 60_000);

  it('refuses an authorization response whose iss is another issuer, or has none (RFC 9207)', async () => {
    // Prepare: a real answer of the service, then as a mix-up attacker would alter it.
    const as = await discover();
    const request = await authorizationRequest(as);
    const answer = await authorizeInBrowser(app, request.url, owned.owner.email, { browser });
    const wrongIss = new URL(answer.url);
    wrongIss.searchParams.set('iss', 'https://attacker.example');
    const noIss = new URL(answer.url);
    noIss.searchParams.delete('iss');

    // Act
    const accepted = oauth.validateAuthResponse(as, client, answer.url, request.state);
    const wrong = await refusalOf(
      Promise.resolve().then(() => oauth.validateAuthResponse(as, client, wrongIss, request.state)),
    );
    const missing = await refusalOf(
      Promise.resolve().then(() => oauth.validateAuthResponse(as, client, noIss, request.state)),
    );

    // Assess
    expect(accepted.get('code')).toBe(answer.code);
    expect(answer.iss).toBe(as.issuer);
    expect(wrong).toBeInstanceOf(oauth.OperationProcessingError);
    expect(wrong).toMatchObject({ code: oauth.INVALID_RESPONSE, cause: { expected: as.issuer } });
    expect(missing).toBeInstanceOf(oauth.OperationProcessingError);
    expect(missing).toMatchObject({ code: oauth.INVALID_RESPONSE });
  }, 60_000);

  it('rotates the refresh token; the old one replayed after the 30 s grace is refused and ends the family', async () => {
    // Prepare
    const as = await discover();
    const first = await authorize(as);
    const oldToken = first.refresh_token as string;

    // Act
    const rotated = await refresh(as, oldToken);
    const newToken = rotated.refresh_token as string;
    app.clock.advance(31_000);
    const replay = await refusalOf(refresh(as, oldToken));
    const successor = await refusalOf(refresh(as, newToken));
    const call = await mcpPost(app, owned.applicationId, bearer(rotated.access_token));

    // Assess
    expect(newToken).toEqual(expect.any(String));
    expect(newToken).not.toBe(oldToken);
    expect(rotated.access_token).not.toBe(first.access_token);
    expect(replay).toBeInstanceOf(oauth.ResponseBodyError);
    expect(replay).toMatchObject({ status: 400, error: 'invalid_grant' });
    expect(successor).toBeInstanceOf(oauth.ResponseBodyError);
    expect(successor).toMatchObject({ status: 400, error: 'invalid_grant' });
    // The family's access tokens stop too: the endpoint reads the grant on every call.
    expect(call.status).toBe(401);
  }, 60_000);
});
