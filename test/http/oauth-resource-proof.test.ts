/**
 * A resource registered in `oauth.resources` must name this service as its authorization server in
 * its own protected resource metadata (RFC 9728 §3.3), and tokens carry the resource in its stored
 * canonical form as `aud` (docs/oauth.md, "Resources of other servers").
 */
import { decodeJwt } from 'jose';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { applicationOfResource } from '../../shared/tenancy/configuration.ts';
import { startTestApp, TEST_ISSUER, type TestApp } from '../support/app.ts';
import {
  type ClientMetadataServer,
  metadataEnv,
  startClientMetadataServer,
} from '../support/client-metadata-server.ts';
import { expectError } from '../support/expect-error.ts';
import { freshIp, type TestResponse } from '../support/http-client.ts';
import { approvalOf, authorizePath, ownPage, pkce, postForm } from '../support/oauth-authorize.ts';
import { refreshRequest, tokenRequest } from '../support/oauth-token.ts';
import { createOwnedApplication, manage } from '../support/tenancy.ts';

let metadata: ClientMetadataServer;
let app: TestApp;
let clientId: string;
const REDIRECT = 'https://agent.example.com/callback';

beforeAll(async () => {
  metadata = await startClientMetadataServer();
  app = await startTestApp({ env: metadataEnv(metadata) });
  clientId = metadata.serveClient('/agent.json');
});
afterAll(async () => {
  await app.close();
  await metadata.close();
});

type Owned = Awaited<ReturnType<typeof createOwnedApplication>>;

const configurationPath = (owned: Owned) => `/applications/${owned.applicationId}/configuration`;
const read = (owned: Owned) => manage(app, 'GET', configurationPath(owned), { token: owned.owner.token });
const patch = (owned: Owned, body: unknown) =>
  manage(app, 'PATCH', configurationPath(owned), { token: owned.owner.token }, body);
const put = (owned: Owned, resources: string[], domain: string | null = null) =>
  manage(
    app,
    'PUT',
    configurationPath(owned),
    { token: owned.owner.token },
    {
      authentication: { syntheticEmailDomain: domain },
      oauth: { resources },
      origin: null,
      socialProviders: { google: null, github: null, microsoft: null, oidc: null },
      socialReturnUrls: [],
    },
  );

/** A path on the metadata host no other test of the file uses. */
let pathCount = 0;
const newPath = (name = 'mcp') => `/rs-${++pathCount}/${name}`;

/** The 400 of a refused proof: one issue at `oauth.resources.<index>` whose message names `words`. */
function expectRefusedProof(response: TestResponse, index: number, resource: string, words: RegExp) {
  expectError(response, 400, 'VALIDATION_ERROR');
  const issues = response.body.error.details.issues as Array<{ path: string; message: string }>;
  expect(issues.map((issue) => issue.path)).toEqual([`oauth.resources.${index}`]);
  expect(issues[0]?.message).toContain(resource);
  expect(issues[0]?.message).toMatch(words);
}

/** The owner's browser through authorize and consent, then the token exchange; the exchange's answer. */
async function tokenFor(owned: Owned, resource: string, tokenResource = resource) {
  const { verifier, challenge } = pkce();
  const cookie = `${app.deps.config.SERVICE_NAME}.session_token=${owned.owner.token}`;
  const page = await app.request(
    'GET',
    authorizePath({
      client_id: clientId,
      redirect_uri: REDIRECT,
      response_type: 'code',
      code_challenge: challenge,
      code_challenge_method: 'S256',
      resource,
      state: 'st',
    }),
    { headers: { cookie }, ip: freshIp() },
  );
  if (page.status !== 200) return { page, token: undefined };
  const approved = await postForm(app, '/oauth/consent', approvalOf(page.text), ownPage({ cookie }));
  expect(approved.status, approved.text).toBe(303);
  const code = new URL(String(approved.headers.location)).searchParams.get('code') ?? '';
  const token = await tokenRequest(app, {
    grant_type: 'authorization_code',
    code,
    code_verifier: verifier,
    client_id: clientId,
    redirect_uri: REDIRECT,
    resource: tokenResource,
  });
  return { page, token };
}

describe('registering a resource of another server needs its protected resource metadata (RFC 9728 §3.3)', () => {
  it('refuses a resource whose metadata is absent: 400 naming it, nothing written', async () => {
    // Prepare
    const owned = await createOwnedApplication(app);
    const resource = `${metadata.url}${newPath()}`;

    // Act
    const response = await patch(owned, { oauth: { resources: [resource] } });

    // Assess
    expectRefusedProof(response, 0, resource, /could not be fetched.*404/);
    expect((await read(owned)).body.oauth.resources).toEqual([]);
    expect(await applicationOfResource(app.deps, resource)).toBeNull();
  });

  it('refuses a resource whose metadata names another authorization server: 400, nothing written', async () => {
    // Prepare
    const owned = await createOwnedApplication(app);
    const resource = metadata.serveResource(newPath(), 'https://as.elsewhere.example');

    // Act
    const response = await put(owned, [resource]);

    // Assess
    expectRefusedProof(response, 0, resource, /authorization_servers.*does not list/);
    expect((await read(owned)).body.oauth.resources).toEqual([]);
    expect(await applicationOfResource(app.deps, resource)).toBeNull();
  });

  it('refuses a resource whose metadata names another resource (or another spelling of it): 400, nothing written', async () => {
    // Prepare
    const owned = await createOwnedApplication(app);
    const path = newPath();
    const other = metadata.serveResource(newPath(), TEST_ISSUER);
    const resource = metadata.serveResource(path, TEST_ISSUER, { resource: other });
    const spelled = metadata.serveResource(newPath(), TEST_ISSUER);
    metadata.serve(metadata.resourceMetadataPath(new URL(spelled).pathname), {
      body: {
        resource: spelled.replace('https://localhost', 'https://LOCALHOST'),
        authorization_servers: [TEST_ISSUER],
      },
    });

    // Act
    const response = await put(owned, [resource]);
    const respelled = await put(owned, [spelled]);

    // Assess
    expectRefusedProof(response, 0, resource, /names the resource .* not /);
    expectRefusedProof(respelled, 0, spelled, /names the resource .* not /);
    expect((await read(owned)).body.oauth.resources).toEqual([]);
    expect(await applicationOfResource(app.deps, resource)).toBeNull();
  });

  it('refuses a resource whose metadata is not a JSON object', async () => {
    // Prepare
    const owned = await createOwnedApplication(app);
    const [html, array] = [newPath(), newPath()];
    metadata.serve(metadata.resourceMetadataPath(html), {
      headers: { 'content-type': 'text/html' },
      body: '<html></html>',
    });
    metadata.serve(metadata.resourceMetadataPath(array), { body: [TEST_ISSUER] });

    // Act
    const answers = [
      await patch(owned, { oauth: { resources: [`${metadata.url}${html}`] } }),
      await patch(owned, { oauth: { resources: [`${metadata.url}${array}`] } }),
    ];

    // Assess
    expectRefusedProof(answers[0] as TestResponse, 0, `${metadata.url}${html}`, /not JSON/);
    expectRefusedProof(answers[1] as TestResponse, 0, `${metadata.url}${array}`, /not a JSON object/);
    expect((await read(owned)).body.oauth.resources).toEqual([]);
  });

  it('names only the resources that fail, and writes none of the list', async () => {
    // Prepare
    const owned = await createOwnedApplication(app);
    const good = metadata.serveResource(newPath(), TEST_ISSUER);
    const bad = `${metadata.url}${newPath()}`;

    // Act
    const response = await put(owned, [good, bad]);

    // Assess
    expectRefusedProof(response, 1, bad, /could not be fetched/);
    expect((await read(owned)).body.oauth.resources).toEqual([]);
    expect(await applicationOfResource(app.deps, good)).toBeNull();
  });

  it('takes a resource whose metadata names it and this issuer, and fetches it only when the write adds it', async () => {
    // Prepare
    const owned = await createOwnedApplication(app);
    const path = newPath();
    const resource = metadata.serveResource(path, TEST_ISSUER);

    // Act
    const added = await patch(owned, { oauth: { resources: [resource] } });
    // The document goes away: a write that keeps the resource does not fetch it again.
    metadata.serve(metadata.resourceMetadataPath(path), { status: 404 });
    const kept = await put(owned, [resource], 'kept.test');

    // Assess
    expect(added.status, added.text).toBe(200);
    expect(added.body.oauth.resources).toEqual([resource]);
    expect(kept.status, kept.text).toBe(200);
    expect(metadata.hits(metadata.resourceMetadataPath(path))).toBe(1);
    expect(await applicationOfResource(app.deps, resource)).toBe(owned.applicationId);
  });

  it("needs no document for the application's own MCP endpoint", async () => {
    // Prepare: the test issuer's host does not even resolve, so any fetch of it would fail.
    const owned = await createOwnedApplication(app);
    const own = `${TEST_ISSUER}/mcp/${owned.applicationId}`;
    const absent = `${metadata.url}${newPath()}`;

    // Act
    const beside = await put(owned, [own, absent]);
    const alone = await put(owned, [own]);

    // Assess
    expectRefusedProof(beside, 1, absent, /could not be fetched/);
    expect(alone.status, alone.text).toBe(200);
    expect(await applicationOfResource(app.deps, own)).toBe(owned.applicationId);
  });
});

describe('tokens carry the resource in its canonical form as aud', () => {
  it('turns another spelling of a registered resource into the stored form', async () => {
    // Prepare
    const owned = await createOwnedApplication(app);
    const resource = metadata.serveResource(newPath('Mcp'), TEST_ISSUER);
    expect((await patch(owned, { oauth: { resources: [resource] } })).status).toBe(200);
    const spelled = resource.replace('https://localhost', 'HTTPS://LocalHost');

    // Act
    const { page, token } = await tokenFor(owned, spelled);
    const refreshed = await refreshRequest(app, token?.body.refresh_token, { resource: spelled });

    // Assess
    expect(page.status, page.text).toBe(200);
    expect(token?.status, token?.text).toBe(200);
    expect(decodeJwt(token?.body.access_token).aud).toBe(resource);
    expect(refreshed.status, refreshed.text).toBe(200);
    expect(decodeJwt(refreshed.body.access_token).aud).toBe(resource);
  });

  it("turns https://HOST:443/mcp/{id} into the application's own MCP resource", async () => {
    // Prepare
    const owned = await createOwnedApplication(app);
    const own = `${TEST_ISSUER}/mcp/${owned.applicationId}`;
    const spelled = `${TEST_ISSUER.toUpperCase()}:443/mcp/${owned.applicationId}`;

    // Act
    const { page, token } = await tokenFor(owned, spelled);

    // Assess
    expect(page.status, page.text).toBe(200);
    expect(token?.status, token?.text).toBe(200);
    expect(decodeJwt(token?.body.access_token).aud).toBe(own);
  });
});

describe('the finding: a tenant registers a server it does not run', () => {
  it('gets no token whose aud is a resource server that names another authorization server', async () => {
    // Prepare: the victim's MCP server trusts its own authorization server only.
    const attacker = await createOwnedApplication(app, 'Attacker App');
    const victim = metadata.serveResource('/victim-rs/mcp', 'https://as.victim.example');
    const spelled = victim.replace('https://localhost', 'https://LOCALHOST');

    // Act
    const registered = await patch(attacker, { oauth: { resources: [spelled] } });
    const { page, token } = await tokenFor(attacker, spelled);

    // Assess
    expectRefusedProof(registered, 0, victim, /does not list/);
    expect(page.status).toBe(400);
    expect(page.text).toContain('invalid_target');
    expect(token).toBeUndefined();
  });
});
