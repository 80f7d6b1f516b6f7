import * as oauth from 'oauth4webapi';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, TEST_ISSUER, type TestApp } from '../support/app.ts';
import { expectError } from '../support/expect-error.ts';
import { createOwnedApplication, manage } from '../support/tenancy.ts';

let app: TestApp;
beforeAll(async () => {
  app = await startTestApp();
});
afterAll(() => app.close());

/** oauth4webapi's requests to the issuer's host, sent to the test app on loopback instead. */
const toTestApp = {
  [oauth.customFetch]: (url: string, init: RequestInit) =>
    fetch(url.replace(TEST_ISSUER, app.url), { ...init, redirect: 'manual' }),
};

describe('GET /.well-known/oauth-authorization-server', () => {
  it('publishes the RFC 8414 metadata of this issuer, cacheable for an hour', async () => {
    // Act
    const response = await app.request('GET', '/.well-known/oauth-authorization-server');

    // Assess
    expect(response.status).toBe(200);
    expect(response.headers['cache-control']).toBe('public, max-age=3600');
    expect(response.body).toEqual({
      issuer: TEST_ISSUER,
      authorization_endpoint: `${TEST_ISSUER}/oauth/authorize`,
      token_endpoint: `${TEST_ISSUER}/oauth/token`,
      jwks_uri: `${TEST_ISSUER}/.well-known/jwks.json`,
      response_types_supported: ['code'],
      response_modes_supported: ['query'],
      grant_types_supported: ['authorization_code', 'refresh_token'],
      code_challenge_methods_supported: ['S256'],
      token_endpoint_auth_methods_supported: ['none'],
      revocation_endpoint: `${TEST_ISSUER}/oauth/revoke`,
      revocation_endpoint_auth_methods_supported: ['none'],
      scopes_supported: ['auth:read', 'auth:write'],
      client_id_metadata_document_supported: true,
      authorization_response_iss_parameter_supported: true,
    });
  });

  it('passes oauth4webapi RFC 8414 discovery (the issuer matches the one asked for)', async () => {
    // Act
    const response = await oauth.discoveryRequest(new URL(TEST_ISSUER), {
      algorithm: 'oauth2',
      ...toTestApp,
    });
    const server = await oauth.processDiscoveryResponse(new URL(TEST_ISSUER), response);

    // Assess
    expect(server.issuer).toBe(TEST_ISSUER);
    expect(server.token_endpoint).toBe(`${TEST_ISSUER}/oauth/token`);
  });
});

describe('GET /.well-known/oauth-protected-resource', () => {
  it('publishes the RFC 9728 metadata of /mcp on this host, cacheable for an hour', async () => {
    // Act
    const response = await app.request('GET', '/.well-known/oauth-protected-resource');

    // Assess
    expect(response.status).toBe(200);
    expect(response.headers['cache-control']).toBe('public, max-age=3600');
    expect(response.body).toEqual({
      resource: `${TEST_ISSUER}/mcp`,
      authorization_servers: [TEST_ISSUER],
      scopes_supported: ['auth:read', 'auth:write'],
      bearer_methods_supported: ['header'],
    });
  });
});

describe('GET /.well-known/oauth-protected-resource/mcp/{id}', () => {
  it("publishes the application's MCP endpoint as the resource, cacheable for an hour", async () => {
    // Prepare
    const { applicationId } = await createOwnedApplication(app);

    // Act
    const response = await app.request('GET', `/.well-known/oauth-protected-resource/mcp/${applicationId}`);

    // Assess
    expect(response.status).toBe(200);
    expect(response.headers['cache-control']).toBe('public, max-age=3600');
    expect(response.body).toEqual({
      resource: `${TEST_ISSUER}/mcp/${applicationId}`,
      authorization_servers: [TEST_ISSUER],
      scopes_supported: ['auth:read', 'auth:write'],
      bearer_methods_supported: ['header'],
    });
  });

  it('passes oauth4webapi RFC 9728 discovery from the MCP endpoint it names', async () => {
    // Prepare
    const { applicationId } = await createOwnedApplication(app);
    const resource = new URL(`${TEST_ISSUER}/mcp/${applicationId}`);

    // Act
    const response = await oauth.resourceDiscoveryRequest(resource, toTestApp);
    const metadata = await oauth.processResourceDiscoveryResponse(resource, response);

    // Assess
    expect(metadata.authorization_servers).toEqual([TEST_ISSUER]);
  });

  it('answers 404 in the error envelope, not cached, for an unknown application', async () => {
    // Act
    const response = await app.request('GET', '/.well-known/oauth-protected-resource/mcp/app_unknown');

    // Assess
    expectError(response, 404, 'NOT_FOUND');
    expect(response.headers['cache-control']).toBe('no-store');
  });

  it('answers 404 once the application is deleted', async () => {
    // Prepare
    const { applicationId, owner } = await createOwnedApplication(app);
    const deleted = await manage(app, 'DELETE', `/applications/${applicationId}`, { token: owner.token });
    expect(deleted.status).toBe(204);

    // Act
    const response = await app.request('GET', `/.well-known/oauth-protected-resource/mcp/${applicationId}`);

    // Assess
    expectError(response, 404, 'NOT_FOUND');
  });
});
