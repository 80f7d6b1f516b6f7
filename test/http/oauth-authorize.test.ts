import { createHash } from 'node:crypto';
import { GetCommand } from '@aws-sdk/lib-dynamodb';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { keys } from '../../shared/store/keys.ts';
import { startTestApp, TEST_ISSUER, type TestApp } from '../support/app.ts';
import {
  type ClientMetadataServer,
  metadataEnv,
  startClientMetadataServer,
} from '../support/client-metadata-server.ts';
import { freshIp, type TestResponse } from '../support/http-client.ts';
import { latestCode } from '../support/inbox.ts';
import {
  authorizePath,
  bridgeRequestOf,
  cookieFrom,
  hiddenField,
  ownPage,
  pkce,
  postForm,
  signInThroughBridge,
} from '../support/oauth-authorize.ts';
import { connect } from '../support/oauth-token.ts';
import { newEmail, wrongCode } from '../support/sign-in.ts';
import { addSignedInMember, createOwnedApplication, manage } from '../support/tenancy.ts';

let metadata: ClientMetadataServer;
let app: TestApp;
let clientId: string;
let applicationId: string;
let resource: string;
let ownerCookie: string;
let owned: Awaited<ReturnType<typeof createOwnedApplication>>;
const { challenge } = pkce();
const REDIRECT = 'https://agent.example.com/callback';
const ISSUER_ORIGIN = new URL(TEST_ISSUER).origin;

beforeAll(async () => {
  metadata = await startClientMetadataServer();
  app = await startTestApp({ env: metadataEnv(metadata) });
  clientId = metadata.serveClient('/agent.json');
  owned = await createOwnedApplication(app);
  applicationId = owned.applicationId;
  resource = `${TEST_ISSUER}/mcp/${applicationId}`;
  ownerCookie = `${app.deps.config.SERVICE_NAME}.session_token=${owned.owner.token}`;
});
afterAll(async () => {
  await app.close();
  await metadata.close();
});

/** A valid request's parameters with `changes` (undefined removes one). */
const params = (changes: Record<string, string | undefined> = {}) => ({
  client_id: clientId,
  redirect_uri: REDIRECT,
  response_type: 'code',
  code_challenge: challenge,
  code_challenge_method: 'S256',
  resource,
  state: 'st-123',
  ...changes,
});

const authorizeAs = (cookie: string | undefined, changes: Record<string, string | undefined> = {}) =>
  app.request('GET', authorizePath(params(changes)), { headers: cookie ? { cookie } : {}, ip: freshIp() });

function expectJsonError(response: TestResponse, error: string) {
  expect(response.status).toBe(400);
  expect(response.body.error).toBe(error);
  expect(response.headers.location).toBeUndefined();
  expect(response.headers['cache-control']).toBe('no-store');
}

/** The parameters of the redirect back to the client. */
function redirectedTo(response: TestResponse, status = 302) {
  expect(response.status).toBe(status);
  const location = new URL(String(response.headers.location));
  expect(`${location.origin}${location.pathname}`).toBe(REDIRECT);
  return location.searchParams;
}

/**
 * An error for the client shown as a page with a link, never redirected: the page names the error
 * and where the link leads; returns the link's parameters.
 */
function refusalPage(response: TestResponse, error: string, target = 'agent.example.com') {
  expect(response.status).toBe(400);
  expect(response.headers.location).toBeUndefined();
  expect(response.headers['content-type']).toMatch(/^text\/html/);
  expect(response.headers['x-frame-options']).toBe('DENY');
  expect(response.headers['cache-control']).toBe('no-store');
  expect(response.text).not.toContain('http-equiv');
  expect(response.text).toContain(error);
  expect(response.text).toContain(target);
  const links = [...response.text.matchAll(/<a href="([^"]*)">/g)];
  expect(links).toHaveLength(1);
  const link = new URL((links[0]?.[1] ?? '').replaceAll('&amp;', '&'));
  expect(`${link.origin}${link.pathname}`).toBe(REDIRECT);
  expect(link.searchParams.get('error')).toBe(error);
  expect(link.searchParams.get('error_description')).toBeTruthy();
  return link.searchParams;
}

/** The consent page's form fields for a signed-in browser, its required checkbox ticked. */
async function consentForm(cookie: string, changes: Record<string, string | undefined> = {}) {
  const page = await authorizeAs(cookie, changes);
  expect(page.status).toBe(200);
  return { request: hiddenField(page.text, 'request'), csrf: hiddenField(page.text, 'csrf'), confirm: 'yes' };
}

/** The scopes of the authorization code a consent's 303 carries, as stored. */
async function storedCodeOf(response: TestResponse) {
  const code = redirectedTo(response, 303).get('code') ?? '';
  const { Item } = await app.deps.db.client.send(
    new GetCommand({
      TableName: app.deps.db.table,
      Key: keys.authorizationCode(createHash('sha256').update(code).digest('hex')),
      ConsistentRead: true,
    }),
  );
  return Item;
}

describe('GET /oauth/authorize: errors before the client is known are 400 JSON', () => {
  it.each([
    ['missing', undefined],
    ['not https', 'http://localhost/agent.json'],
    ['without a document', 'https://localhost:1/agent.json'],
  ])('answers invalid_client for a client_id %s', async (_case, value) => {
    expectJsonError(await authorizeAs(undefined, { client_id: value }), 'invalid_client');
  });

  it('answers invalid_request for a missing redirect_uri', async () => {
    expectJsonError(await authorizeAs(undefined, { redirect_uri: undefined }), 'invalid_request');
  });

  it('answers invalid_request for a repeated parameter', async () => {
    const path = `${authorizePath(params())}&state=again`;
    expectJsonError(await app.request('GET', path, { ip: freshIp() }), 'invalid_request');
  });

  it.each([
    ['a trailing slash', `${REDIRECT}/`],
    ['another case', 'https://agent.example.com/Callback'],
    ['an extra query', `${REDIRECT}?x=1`],
    ['userinfo', 'https://agent.example.com@evil.example/callback'],
    ['another host', 'https://evil.example/callback'],
    ['http instead of https', 'http://agent.example.com/callback'],
    ['another loopback path', 'http://127.0.0.1:5000/other'],
    ['a loopback URI with userinfo', 'http://127.0.0.1@evil.example/callback'],
  ])('refuses a redirect_uri with %s, never redirecting', async (_case, redirectUri) => {
    expectJsonError(await authorizeAs(undefined, { redirect_uri: redirectUri }), 'invalid_request');
  });

  it.each([
    ['without a port', 'http://127.0.0.1/callback'],
    ['on any port', 'http://127.0.0.1:49152/callback'],
  ])('accepts the registered loopback redirect URI %s', async (_case, redirectUri) => {
    const response = await authorizeAs(undefined, { redirect_uri: redirectUri });
    expect(response.status).toBe(302);
    expect(String(response.headers.location)).toMatch(/\/oauth\/login\?request=/);
  });
});

describe('GET /oauth/authorize: later errors go back to the redirect URI with iss and state', () => {
  const laterErrors = [
    ['response_type=token', { response_type: 'token' }, 'unsupported_response_type'],
    ['no code_challenge', { code_challenge: undefined }, 'invalid_request'],
    ['a malformed code_challenge', { code_challenge: 'short' }, 'invalid_request'],
    ['code_challenge_method=plain', { code_challenge_method: 'plain' }, 'invalid_request'],
    ['no resource', { resource: undefined }, 'invalid_target'],
    ['an http resource', { resource: 'http://api.example.com/mcp' }, 'invalid_target'],
    ['a resource with a fragment', { resource: 'RESOURCE#frag' }, 'invalid_target'],
    ['an unregistered resource', { resource: 'https://api.example.com/mcp' }, 'invalid_target'],
    ['an unknown application', { resource: `${TEST_ISSUER}/mcp/app_unknown` }, 'invalid_target'],
    ['a scope naming only unknown scopes', { scope: 'profile email' }, 'invalid_scope'],
    ['an empty scope', { scope: '' }, 'invalid_scope'],
  ] as const;
  const fixed = (changes: Record<string, string | undefined>) =>
    Object.fromEntries(
      Object.entries(changes).map(([name, value]) => [name, value?.replace('RESOURCE', resource)]),
    );

  it.each(laterErrors)(
    'without a session, %s: a 400 page whose link carries the error, iss and state',
    async (_case, changes, error) => {
      const link = refusalPage(await authorizeAs(undefined, fixed(changes)), error);
      expect(link.get('iss')).toBe(TEST_ISSUER);
      expect(link.get('state')).toBe('st-123');
    },
  );

  it.each(laterErrors)(
    'with a session but no grant of this client, %s: a 400 page with the link, never an automatic redirect',
    async (_case, changes, error) => {
      // Anyone may publish a metadata document naming any redirect URI: a signed-in user is not bounced
      // to a client they never trusted (RFC 9700 §4.11.2).
      const stranger = metadata.serveClient('/stranger.json');
      const link = refusalPage(
        await authorizeAs(ownerCookie, { ...fixed(changes), client_id: stranger }),
        error,
      );
      expect(link.get('iss')).toBe(TEST_ISSUER);
      expect(link.get('state')).toBe('st-123');
    },
  );

  it.each(laterErrors)(
    'with a session and a live grant of this client, %s: a 302 to the redirect URI',
    async (_case, changes, error) => {
      // Prepare: the owner already connected this client (a code exchanged into a grant).
      const trusted = metadata.serveClient('/trusted.json');
      await connect(app, { userId: owned.owner.userId, applicationId, clientId: trusted });

      // Act
      const response = await authorizeAs(ownerCookie, { ...fixed(changes), client_id: trusted });

      // Assess
      const redirected = redirectedTo(response);
      expect(redirected.get('error')).toBe(error);
      expect(redirected.get('iss')).toBe(TEST_ISSUER);
      expect(redirected.get('state')).toBe('st-123');
    },
  );

  it('leaves state out of the link when the client sent none', async () => {
    const link = refusalPage(
      await authorizeAs(undefined, { state: undefined, response_type: 'token' }),
      'unsupported_response_type',
    );
    expect(link.get('state')).toBeNull();
    expect(link.get('iss')).toBe(TEST_ISSUER);
  });

  it('shows a private-use redirect URI by its scheme on the page, never a blank', async () => {
    // Prepare
    const appClient = metadata.serveClient('/private-use-refused.json', {
      redirect_uris: ['com.example.app:/cb'],
    });

    // Act
    const response = await authorizeAs(undefined, {
      client_id: appClient,
      redirect_uri: 'com.example.app:/cb',
      response_type: 'token',
    });

    // Assess
    expect(response.status).toBe(400);
    expect(response.text).toContain('<strong>com.example.app:</strong>');
    expect(response.text).toContain('href="com.example.app:/cb?error=unsupported_response_type');
  });

  it('keeps known scopes beside unknown ones: the consent page shows the known', async () => {
    const response = await authorizeAs(ownerCookie, { scope: 'auth:read profile' });

    expect(response.status).toBe(200);
    expect(response.text).toContain('auth:read');
    expect(response.text).not.toContain('auth:write');
  });

  it('answers a signed-in user with no role on the application with an access_denied page, not a redirect', async () => {
    // Prepare
    const stranger = await authorizeAs(undefined);
    const { cookie } = await signInThroughBridge(app, bridgeRequestOf(stranger), newEmail());

    // Act
    const response = await authorizeAs(cookie);

    // Assess
    const link = refusalPage(response, 'access_denied');
    expect(link.get('iss')).toBe(TEST_ISSUER);
    expect(link.get('state')).toBe('st-123');
  });
});

describe('GET /oauth/authorize: the sign-in bridge and the consent page', () => {
  it('sends a browser without a platform session to the sign-in bridge', async () => {
    const response = await authorizeAs(`${app.deps.config.SERVICE_NAME}.session_token=not-a-token`);

    expect(response.status).toBe(302);
    const location = new URL(String(response.headers.location));
    expect(location.href.startsWith(`${TEST_ISSUER}/oauth/login?`)).toBe(true);
    // At least 128 random bits after the prefix (22 base64url characters).
    expect(bridgeRequestOf(response)).toMatch(/^oar_[A-Za-z0-9_-]{22,}$/);
  });

  it('takes live platform cookies of two users for no session (one was planted): to the bridge, not consent', async () => {
    // Prepare: the owner's cookie and another user's beside it (a sibling subdomain could set one).
    const { cookie: strangerCookie } = await signInThroughBridge(
      app,
      bridgeRequestOf(await authorizeAs(undefined)),
      newEmail(),
    );
    const stranger = strangerCookie.split(';')[0] ?? '';

    // Act
    const response = await authorizeAs(`${ownerCookie}; ${stranger}`);

    // Assess
    expect(response.status).toBe(302);
    expect(String(response.headers.location).startsWith(`${TEST_ISSUER}/oauth/login?`)).toBe(true);
    // Each alone is a session: the owner's shows the consent page.
    expect((await authorizeAs(ownerCookie)).status).toBe(200);
  });

  it('shows the consent page to the owner, with strict page headers', async () => {
    const response = await authorizeAs(ownerCookie);

    expect(response.status).toBe(200);
    expect(response.headers['content-type']).toMatch(/^text\/html/);
    const csp = String(response.headers['content-security-policy']);
    expect(csp).toContain("default-src 'none'");
    expect(csp).toContain("frame-ancestors 'none'");
    expect(csp).toContain("base-uri 'none'");
    expect(csp).toContain("form-action 'self' https://agent.example.com");
    expect(csp).not.toContain('unsafe-inline');
    expect(response.headers['x-frame-options']).toBe('DENY');
    expect(response.headers['referrer-policy']).toBe('no-referrer');
    expect(response.headers['cache-control']).toBe('no-store');
    expect(response.text).toContain('Test Agent');
    expect(response.text).toContain(clientId);
    expect(response.text).toContain('agent.example.com');
    expect(response.text).toContain('auth:read');
    expect(response.text).toContain('auth:write');
    expect(response.text).not.toContain('<script');
  });

  it("shows the application's logo, allowed by its origin alone", async () => {
    // Prepare
    const logoOwned = await createOwnedApplication(app, 'Logo App');
    await manage(
      app,
      'PATCH',
      `/applications/${logoOwned.applicationId}`,
      { token: logoOwned.owner.token },
      {
        logoUrl: 'https://cdn.example.com/logo.png',
      },
    );
    const cookie = `${app.deps.config.SERVICE_NAME}.session_token=${logoOwned.owner.token}`;

    // Act
    const response = await authorizeAs(cookie, { resource: `${TEST_ISSUER}/mcp/${logoOwned.applicationId}` });

    // Assess
    expect(response.text).toContain('<img src="https://cdn.example.com/logo.png"');
    expect(String(response.headers['content-security-policy'])).toContain('img-src https://cdn.example.com;');
  });

  it.each([
    ['a private-use scheme without a host', 'com.example.app:/cb', '<strong>com.example.app:</strong>'],
    [
      'a private-use scheme with a host',
      'com.example.app://callback/cb',
      '<strong>com.example.app://callback</strong>',
    ],
  ])('names a redirect URI of %s by its scheme, never a blank', async (_case, redirectUri, shown) => {
    // Prepare
    const appClient = metadata.serveClient(`/private-use-${shown.length}.json`, {
      redirect_uris: [redirectUri],
    });

    // Act
    const response = await authorizeAs(ownerCookie, { client_id: appClient, redirect_uri: redirectUri });

    // Assess
    expect(response.status).toBe(200);
    expect(response.text).toContain(`you are sent to ${shown}`);
    expect(response.text).not.toContain('you are sent to <strong></strong>');
  });

  it.each([
    ['ftp', 'ftp://files.example.com/cb', 'has the scheme ftp:'],
    ['view-source', 'view-source:https://agent.example.com/callback', 'has the scheme view-source:'],
    ['single-word', 'myapp:/cb', 'has the scheme myapp:'],
    ['http-public', 'http://agent.example.com/callback', 'is http on a host other than'],
  ])(
    'renders no page for a client listing a %s redirect URI: 400 invalid_client naming it',
    async (name, redirectUri, why) => {
      // Prepare
      const refusedClient = metadata.serveClient(`/refused-redirect-${name}.json`, {
        redirect_uris: [redirectUri],
      });

      // Act
      const response = await authorizeAs(ownerCookie, {
        client_id: refusedClient,
        redirect_uri: redirectUri,
      });

      // Assess
      expectJsonError(response, 'invalid_client');
      expect(response.headers['content-type']).toMatch(/^application\/json\b/);
      expect(response.body.error_description).toContain(`redirect_uris[0] (${redirectUri}) ${why}`);
    },
  );

  it('asks for a required checkbox naming the client and the application; Deny needs none', async () => {
    const response = await authorizeAs(ownerCookie);

    const host = new URL(clientId).host;
    expect(response.text).toContain(
      `<input type="checkbox" name="confirm" value="yes" required> Allow ${host} to use Acme Notes`,
    );
    expect(response.text).toMatch(/value="deny"[^>]*formnovalidate/);
  });

  it('escapes a hostile client name and application name', async () => {
    // Prepare
    const hostile = '<script>alert(1)</script>"\'&';
    const hostileClient = metadata.serveClient('/hostile.json', { client_name: hostile });
    const owned = await createOwnedApplication(app, '<img src=x onerror=alert(2)>');
    const cookie = `${app.deps.config.SERVICE_NAME}.session_token=${owned.owner.token}`;

    // Act
    const response = await authorizeAs(cookie, {
      client_id: hostileClient,
      resource: `${TEST_ISSUER}/mcp/${owned.applicationId}`,
    });

    // Assess
    expect(response.status).toBe(200);
    expect(response.text).not.toContain('<script>');
    expect(response.text).not.toContain('<img src=x');
    expect(response.text).toContain('&lt;script&gt;alert(1)&lt;/script&gt;&quot;&#39;&amp;');
    expect(response.text).toContain('&lt;img src=x onerror=alert(2)&gt;');
  });
});

describe('the sign-in bridge', () => {
  it('answers an unknown request with an HTML error page', async () => {
    const response = await app.request('GET', '/oauth/login?request=oar_unknown', { ip: freshIp() });

    expect(response.status).toBe(400);
    expect(response.headers['content-type']).toMatch(/^text\/html/);
    expect(response.headers['x-frame-options']).toBe('DENY');
  });

  it('answers a request already decided by a consent as unknown: a taken request reads as gone', async () => {
    const form = await consentForm(ownerCookie);
    const decided = await postForm(
      app,
      '/oauth/consent',
      { ...form, decision: 'approve' },
      ownPage({ cookie: ownerCookie }),
    );
    expect(decided.status).toBe(303);

    const response = await app.request('GET', `/oauth/login?request=${form.request}`, { ip: freshIp() });

    expect(response.status).toBe(400);
    expect(response.headers['content-type']).toMatch(/^text\/html/);
  });

  it('shows the email form with the application name, signs in and returns to the request', async () => {
    // Prepare
    const authorizeQuery = authorizePath(params()).split('?')[1];
    const requestId = bridgeRequestOf(await authorizeAs(undefined));
    const email = newEmail();

    // Act
    const page = await app.request('GET', `/oauth/login?request=${requestId}`, { ip: freshIp() });
    const { cookie, verified } = await signInThroughBridge(app, requestId, email);

    // Assess
    expect(page.status).toBe(200);
    expect(page.text).toContain('Acme Notes');
    expect(page.text).toContain('action="/oauth/login"');
    expect(verified.headers.location).toBe(`${TEST_ISSUER}/oauth/authorize?${authorizeQuery}`);
    const setCookie = String(verified.headers['set-cookie']);
    expect(setCookie).toContain('HttpOnly; Secure; SameSite=Lax; Path=/');
    // The first code created the platform account, whose session the cookie holds.
    const session = await app.request('GET', '/auth/session', { headers: { cookie }, ip: freshIp() });
    expect(session.body.user.email).toBe(email);
  });

  it('shows the code form again with the attempts left after a wrong code', async () => {
    // Prepare
    const requestId = bridgeRequestOf(await authorizeAs(undefined));
    const email = newEmail();
    await postForm(app, '/oauth/login', { request: requestId, email });
    const code = await latestCode(email);

    // Act
    const response = await postForm(app, '/oauth/login/verify', {
      request: requestId,
      email,
      code: wrongCode(code),
    });

    // Assess
    expect(response.status).toBe(400);
    expect(response.headers['content-type']).toMatch(/^text\/html/);
    expect(response.text).toContain('4 attempts left');
    expect(cookieFrom(response, `${app.deps.config.SERVICE_NAME}.session_token`)).toBeUndefined();
  });

  it('answers an expired code with a 410 page', async () => {
    // Prepare
    const requestId = bridgeRequestOf(await authorizeAs(undefined));
    const email = newEmail();
    await postForm(app, '/oauth/login', { request: requestId, email });
    const code = await latestCode(email);
    // The sign-in code expires with the request: both live 10 minutes; a fresh request for the verify.
    app.clock.advance(601_000);
    const fresh = bridgeRequestOf(await authorizeAs(undefined));

    // Act
    const response = await postForm(app, '/oauth/login/verify', { request: fresh, email, code });

    // Assess
    expect(response.status).toBe(410);
    expect(response.headers['content-type']).toMatch(/^text\/html/);
  });

  it('answers an expired request with a 400 page', async () => {
    const requestId = bridgeRequestOf(await authorizeAs(undefined));
    app.clock.advance(601_000);

    const response = await app.request('GET', `/oauth/login?request=${requestId}`, { ip: freshIp() });

    expect(response.status).toBe(400);
    expect(response.headers['content-type']).toMatch(/^text\/html/);
  });

  it('answers the fifth wrong code with a 429 page', async () => {
    // Prepare
    const requestId = bridgeRequestOf(await authorizeAs(undefined));
    const email = newEmail();
    await postForm(app, '/oauth/login', { request: requestId, email });
    const code = wrongCode(await latestCode(email));
    for (let attempt = 1; attempt < 5; attempt++) {
      await postForm(app, '/oauth/login/verify', { request: requestId, email, code });
    }

    // Act
    const fifth = await postForm(app, '/oauth/login/verify', { request: requestId, email, code });

    // Assess
    expect(fifth.status).toBe(429);
    expect(fifth.headers['content-type']).toMatch(/^text\/html/);
  });

  it('allows five sign-in starts a minute from one IP, as /auth/code/start does: the sixth is a 429 page', async () => {
    // Prepare: 5 starts per minute per IP (docs/security.md, "Rate limits"), whatever the address.
    const requestId = bridgeRequestOf(await authorizeAs(undefined));
    const ip = freshIp();
    for (let start = 1; start <= 5; start++) {
      const started = await postForm(
        app,
        '/oauth/login',
        { request: requestId, email: newEmail() },
        ownPage(),
        ip,
      );
      expect(started.status, started.text).toBe(200);
    }

    // Act
    const sixth = await postForm(
      app,
      '/oauth/login',
      { request: requestId, email: newEmail() },
      ownPage(),
      ip,
    );

    // Assess: the five counted starts share this millisecond, so the first leaves the window in 60 s.
    expect(sixth.status).toBe(429);
    expect(sixth.headers['content-type']).toMatch(/^text\/html/);
    expect(sixth.headers['retry-after']).toBe('60');
    // One limit: the API's start from that IP is refused too.
    const api = await app.request('POST', '/auth/code/start', { body: { email: newEmail() }, ip });
    expect(api.status).toBe(429);
    expect(api.body.error.code).toBe('RATE_LIMITED');
  });

  it('shares the per-address limit with the API: two API starts and one here, then the fourth either way is refused', async () => {
    // Prepare: 3 codes per address per 10 minutes (docs/security.md, "Rate limits").
    const requestId = bridgeRequestOf(await authorizeAs(undefined));
    const email = newEmail();
    for (let start = 1; start <= 2; start++) {
      const started = await app.request('POST', '/auth/code/start', { body: { email }, ip: freshIp() });
      expect(started.status, started.text).toBe(200);
    }
    const bridged = await postForm(app, '/oauth/login', { request: requestId, email });
    expect(bridged.status, bridged.text).toBe(200);

    // Act
    const here = await postForm(app, '/oauth/login', { request: requestId, email });
    const api = await app.request('POST', '/auth/code/start', { body: { email }, ip: freshIp() });

    // Assess
    expect(here.status).toBe(429);
    expect(here.headers['content-type']).toMatch(/^text\/html/);
    expect(here.headers['retry-after']).toBe('600');
    expect(api.status).toBe(429);
    expect(api.body.error.code).toBe('RATE_LIMITED');
    expect(api.headers['retry-after']).toBe('600');
  });

  it('refuses a sign-in form posted from another site', async () => {
    const requestId = bridgeRequestOf(await authorizeAs(undefined));

    const response = await postForm(
      app,
      '/oauth/login',
      { request: requestId, email: newEmail() },
      ownPage({ origin: 'https://evil.example' }),
    );

    expect(response.status).toBe(403);
    expect(response.headers['content-type']).toMatch(/^text\/html/);
  });

  describe('both POSTs take only the consent origin rule', () => {
    const refused = [
      [
        'a configured platform origin that is not the service',
        ownPage({ origin: 'https://app.doorcode.test' }),
      ],
      [
        'no Origin and Sec-Fetch-Site none',
        { 'content-type': 'application/x-www-form-urlencoded', 'sec-fetch-site': 'none' },
      ],
      ['an opaque Origin and Sec-Fetch-Site none', ownPage({ origin: 'null', 'sec-fetch-site': 'none' })],
      ['no Origin and no Sec-Fetch-Site', { 'content-type': 'application/x-www-form-urlencoded' }],
    ] as const;

    it.each(refused)('refuses the email form with %s (403 page)', async (_case, headers) => {
      const requestId = bridgeRequestOf(await authorizeAs(undefined));

      const response = await postForm(
        app,
        '/oauth/login',
        { request: requestId, email: newEmail() },
        { ...headers },
      );

      expect(response.status).toBe(403);
      expect(response.headers['content-type']).toMatch(/^text\/html/);
    });

    it.each(refused)('refuses the code form with %s (403 page, no cookie)', async (_case, headers) => {
      // Prepare
      const requestId = bridgeRequestOf(await authorizeAs(undefined));
      const email = newEmail();
      await postForm(app, '/oauth/login', { request: requestId, email });
      const code = await latestCode(email);

      // Act
      const response = await postForm(
        app,
        '/oauth/login/verify',
        { request: requestId, email, code },
        { ...headers },
      );

      // Assess
      expect(response.status).toBe(403);
      expect(cookieFrom(response, `${app.deps.config.SERVICE_NAME}.session_token`)).toBeUndefined();
    });

    it('accepts the opaque Origin of the no-referrer pages with Sec-Fetch-Site same-origin', async () => {
      const requestId = bridgeRequestOf(await authorizeAs(undefined));

      const response = await postForm(
        app,
        '/oauth/login',
        { request: requestId, email: newEmail() },
        ownPage({ origin: 'null', 'sec-fetch-site': 'same-origin' }),
      );

      expect(response.status).toBe(200);
    });
  });

  it("counts the service's own origin as a platform origin for the session cookie", async () => {
    // Prepare
    const email = newEmail();
    await app.request('POST', '/auth/code/start', { body: { email }, ip: freshIp() });
    const code = await latestCode(email);

    // Act
    const response = await app.request('POST', '/auth/code/verify', {
      body: { email, code },
      headers: { origin: ISSUER_ORIGIN },
      ip: freshIp(),
    });

    // Assess
    expect(response.status).toBe(200);
    expect(cookieFrom(response, `${app.deps.config.SERVICE_NAME}.session_token`)).toBeDefined();
  });
});

describe('POST /oauth/consent', () => {
  it('approves: 303 to the redirect URI with code, state and iss', async () => {
    const form = await consentForm(ownerCookie);

    const response = await postForm(
      app,
      '/oauth/consent',
      { ...form, decision: 'approve' },
      ownPage({ cookie: ownerCookie }),
    );

    const redirected = redirectedTo(response, 303);
    expect(redirected.get('code')).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(redirected.get('state')).toBe('st-123');
    expect(redirected.get('iss')).toBe(TEST_ISSUER);
  });

  it("grants the scopes of the user's role at the time of the approval", async () => {
    // Prepare: an admin sees both scopes, then is made a member before approving.
    const admin = await addSignedInMember(app, owned.owner.token, owned.organizationId, 'admin');
    const cookie = `${app.deps.config.SERVICE_NAME}.session_token=${admin.token}`;
    const form = await consentForm(cookie);
    const path = `/organizations/${owned.organizationId}/members/${admin.userId}`;
    expect((await manage(app, 'PATCH', path, { token: owned.owner.token }, { role: 'member' })).status).toBe(
      200,
    );

    // Act
    const response = await postForm(
      app,
      '/oauth/consent',
      { ...form, decision: 'approve' },
      ownPage({ cookie }),
    );

    // Assess
    const code = redirectedTo(response, 303).get('code') ?? '';
    const { Item } = await app.deps.db.client.send(
      new GetCommand({
        TableName: app.deps.db.table,
        Key: keys.authorizationCode(createHash('sha256').update(code).digest('hex')),
        ConsistentRead: true,
      }),
    );
    expect(Item?.scopes).toEqual(['auth:read']);
    expect(Item?.userId).toBe(admin.userId);
    expect(Item?.resource).toBe(resource);
  });

  it('never grants a scope the page did not show: a member promoted before approving gets auth:read', async () => {
    // Prepare: a member sees auth:read only, then is made an admin before approving.
    const member = await addSignedInMember(app, owned.owner.token, owned.organizationId, 'member');
    const cookie = `${app.deps.config.SERVICE_NAME}.session_token=${member.token}`;
    const page = await authorizeAs(cookie);
    expect(page.text).not.toContain('auth:write');
    const form = {
      request: hiddenField(page.text, 'request'),
      csrf: hiddenField(page.text, 'csrf'),
      confirm: 'yes',
    };
    const path = `/organizations/${owned.organizationId}/members/${member.userId}`;
    expect((await manage(app, 'PATCH', path, { token: owned.owner.token }, { role: 'admin' })).status).toBe(
      200,
    );

    // Act
    const response = await postForm(
      app,
      '/oauth/consent',
      { ...form, decision: 'approve' },
      ownPage({ cookie }),
    );

    // Assess
    const stored = await storedCodeOf(response);
    expect(stored?.scopes).toEqual(['auth:read']);
    expect(stored?.userId).toBe(member.userId);
  });

  it('refuses an approval without the ticked checkbox with a page, and the request stays usable', async () => {
    // Prepare
    const { confirm: _ticked, ...unticked } = await consentForm(ownerCookie);

    // Act
    const refused = await postForm(
      app,
      '/oauth/consent',
      { ...unticked, decision: 'approve' },
      ownPage({ cookie: ownerCookie }),
    );
    const ticked = await postForm(
      app,
      '/oauth/consent',
      { ...unticked, confirm: 'yes', decision: 'approve' },
      ownPage({ cookie: ownerCookie }),
    );

    // Assess
    expect(refused.status).toBe(400);
    expect(refused.headers.location).toBeUndefined();
    expect(refused.headers['content-type']).toMatch(/^text\/html/);
    expect(redirectedTo(ticked, 303).get('code')).toMatch(/^[A-Za-z0-9_-]{43}$/);
  });

  it('denies without the checkbox', async () => {
    const { confirm: _ticked, ...unticked } = await consentForm(ownerCookie);

    const response = await postForm(
      app,
      '/oauth/consent',
      { ...unticked, decision: 'deny' },
      ownPage({ cookie: ownerCookie }),
    );

    expect(redirectedTo(response, 303).get('error')).toBe('access_denied');
  });

  it('denies: 303 with access_denied, state and iss', async () => {
    const form = await consentForm(ownerCookie);

    const response = await postForm(
      app,
      '/oauth/consent',
      { ...form, decision: 'deny' },
      ownPage({ cookie: ownerCookie }),
    );

    const redirected = redirectedTo(response, 303);
    expect(redirected.get('error')).toBe('access_denied');
    expect(redirected.get('code')).toBeNull();
    expect(redirected.get('state')).toBe('st-123');
    expect(redirected.get('iss')).toBe(TEST_ISSUER);
  });

  it('accepts a POST without Origin whose Sec-Fetch-Site is same-origin', async () => {
    const form = await consentForm(ownerCookie);
    const headers = {
      'content-type': 'application/x-www-form-urlencoded',
      cookie: ownerCookie,
      'sec-fetch-site': 'same-origin',
    };

    const response = await postForm(app, '/oauth/consent', { ...form, decision: 'approve' }, headers);

    expect(response.status).toBe(303);
  });

  it('accepts the opaque Origin a no-referrer page sends when Sec-Fetch-Site is same-origin', async () => {
    const form = await consentForm(ownerCookie);

    const response = await postForm(
      app,
      '/oauth/consent',
      { ...form, decision: 'approve' },
      ownPage({ cookie: ownerCookie, origin: 'null', 'sec-fetch-site': 'same-origin' }),
    );

    expect(response.status).toBe(303);
  });

  it('is single use: a second decision is refused with a page, never a redirect', async () => {
    const form = await consentForm(ownerCookie);
    await postForm(app, '/oauth/consent', { ...form, decision: 'approve' }, ownPage({ cookie: ownerCookie }));

    const again = await postForm(
      app,
      '/oauth/consent',
      { ...form, decision: 'approve' },
      ownPage({ cookie: ownerCookie }),
    );

    expect(again.status).toBe(400);
    expect(again.headers.location).toBeUndefined();
    expect(again.headers['content-type']).toMatch(/^text\/html/);
  });

  it('refuses an expired request', async () => {
    const form = await consentForm(ownerCookie);
    app.clock.advance(601_000);

    const response = await postForm(
      app,
      '/oauth/consent',
      { ...form, decision: 'approve' },
      ownPage({ cookie: ownerCookie }),
    );

    expect(response.status).toBe(400);
    expect(response.headers.location).toBeUndefined();
  });

  describe('CSRF', () => {
    it.each([
      ['no cookie', () => ownPage()],
      ['a foreign Origin', () => ownPage({ cookie: ownerCookie, origin: 'https://evil.example' })],
      [
        'a configured platform origin that is not the service',
        () => ownPage({ cookie: ownerCookie, origin: 'https://app.doorcode.test' }),
      ],
      [
        'no Origin and a cross-site fetch',
        () => ({
          'content-type': 'application/x-www-form-urlencoded',
          cookie: ownerCookie,
          'sec-fetch-site': 'cross-site',
        }),
      ],
      [
        'an opaque Origin and a cross-site fetch (a sandboxed frame)',
        () => ownPage({ cookie: ownerCookie, origin: 'null', 'sec-fetch-site': 'cross-site' }),
      ],
    ])('refuses a decision with %s (403 page)', async (_case, headers) => {
      const form = await consentForm(ownerCookie);

      const response = await postForm(app, '/oauth/consent', { ...form, decision: 'approve' }, headers());

      expect(response.status).toBe(403);
      expect(response.headers.location).toBeUndefined();
      expect(response.headers['content-type']).toMatch(/^text\/html/);
    });

    it("refuses another session's request", async () => {
      // Prepare
      const form = await consentForm(ownerCookie);
      const other = await signInThroughBridge(app, bridgeRequestOf(await authorizeAs(undefined)), newEmail());

      // Act
      const response = await postForm(
        app,
        '/oauth/consent',
        { ...form, decision: 'approve' },
        ownPage({ cookie: other.cookie }),
      );

      // Assess
      expect(response.status).toBe(403);
      expect(response.headers.location).toBeUndefined();
    });

    it('refuses a wrong CSRF token, and the request stays usable', async () => {
      const form = await consentForm(ownerCookie);

      const forged = await postForm(
        app,
        '/oauth/consent',
        { ...form, csrf: 'forged', decision: 'approve' },
        ownPage({ cookie: ownerCookie }),
      );
      const genuine = await postForm(
        app,
        '/oauth/consent',
        { ...form, decision: 'approve' },
        ownPage({ cookie: ownerCookie }),
      );

      expect(forged.status).toBe(403);
      expect(genuine.status).toBe(303);
    });
  });
});
