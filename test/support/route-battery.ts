/**
 * The route battery: the sign-in, session, management, device, tenancy, impersonation, teardown,
 * OAuth and MCP paths, one request at a time, reaching every route of the table with a successful
 * answer (405 for the MCP methods that only refuse). Shared by the item-family check
 * (test/http/item-families.test.ts) and the OpenAPI answer check (test/http/openapi-answers.test.ts):
 * each wraps `app.request` to see every answer.
 */
import { expect } from 'vitest';
import { startTestApp, TEST_ISSUER, type TestApp } from './app.ts';
import {
  type ClientMetadataServer,
  metadataEnv,
  startClientMetadataServer,
  testCertificates,
} from './client-metadata-server.ts';
import { freshIp } from './http-client.ts';
import { latestCode } from './inbox.ts';
import { mcpAccessToken, mcpPost, toolCall } from './mcp.ts';
import {
  approvalOf,
  authorizePath,
  bridgeRequestOf,
  ownPage,
  pkce,
  postForm,
  signInThroughBridge,
} from './oauth-authorize.ts';
import { CLIENT, connect, refreshRequest } from './oauth-token.ts';
import { bearer, newEmail, signIn } from './sign-in.ts';
import {
  APP_CHALLENGE,
  APP_VERIFIER,
  type SocialProviders,
  socialEnv,
  socialTrip,
  startSocialProviders,
  withChallenge,
} from './social-providers.ts';
import { createOwnedApplication, manage } from './tenancy.ts';

const GIF_1x1 = 'R0lGODlhAQABAIAAAAAAAP///yH5BAEAAAAALAAAAAABAAEAAAIBRAA7';

export interface Battery {
  /** The app whose requests are watched: every request of the battery goes through it. */
  readonly app: TestApp;
  /** The app itself (its deps: the service name, the signer for MCP access tokens). */
  readonly real: TestApp;
  /** The host of the OAuth clients' metadata documents and of resources' protected resource metadata. */
  readonly metadata: ClientMetadataServer;
  /** The social sign-in providers (docs/social-sign-in.md): an OpenID Connect provider and a GitHub-style one. */
  readonly social: SocialProviders;
}

/**
 * The app a battery runs against, with the hosts it reaches: the OAuth clients' metadata documents
 * and the social providers, under one test CA (the app trusts one CA file); `close` stops all three.
 */
export async function startBatteryHosts(): Promise<Omit<Battery, 'app'> & { close: () => Promise<void> }> {
  const certificates = await testCertificates();
  const metadata = await startClientMetadataServer(certificates);
  const social = await startSocialProviders(certificates);
  const real = await startTestApp({
    env: { ...metadataEnv(metadata), ...socialEnv(social), MAX_CODE_EMAILS_PER_HOUR: '1000' },
  }).catch(async (error: unknown) => {
    await metadata.close();
    await social.close();
    throw error;
  });
  return {
    real,
    metadata,
    social,
    close: async () => {
      await real.close();
      await metadata.close();
      await social.close();
    },
  };
}

/**
 * Health, discovery, the agent bootstrap (docs/quickstart-agent.md), the OAuth bridge and consent,
 * sessions, management, peek.
 */
export async function signInSessionAndManagementPaths({
  app,
  real,
  metadata,
  social,
}: Battery): Promise<void> {
  // Health and discovery.
  await app.request('GET', '/');
  await app.request('GET', '/status');
  await app.request('GET', '/.well-known/jwks.json');
  await app.request('GET', '/openapi.json');
  await app.request('GET', '/dashboard');
  await app.request('GET', '/.well-known/oauth-authorization-server');
  await app.request('GET', '/.well-known/oauth-protected-resource');
  await app.request('OPTIONS', '/auth/session', { headers: { origin: 'https://app.doorcode.test' } });

  // The agent bootstrap (docs/quickstart-agent.md): a platform sign-in, an organization, an application, its
  // keys.
  const owned = await createOwnedApplication(app);
  const token = owned.owner.token;
  const auth = bearer(token);
  const { applicationId, organizationId, publicKey, secretKey } = owned;
  await app.request('GET', `/.well-known/oauth-protected-resource/mcp/${applicationId}`);

  // OAuth authorization: a browser without a session through the sign-in bridge, then the owner's consent.
  const authorize = authorizePath({
    client_id: metadata.serveClient('/agent.json'),
    redirect_uri: 'https://agent.example.com/callback',
    response_type: 'code',
    code_challenge: pkce().challenge,
    resource: `${TEST_ISSUER}/mcp/${applicationId}`,
  });
  const requestId = bridgeRequestOf(await app.request('GET', authorize, { ip: freshIp() }));
  await app.request('GET', `/oauth/login?request=${requestId}`, { ip: freshIp() });
  const { recentCookie } = await signInThroughBridge(app, requestId, newEmail());
  // Recent accounts (docs/api.md, "Recent accounts"): the browser's list after that sign-in.
  await app.request('GET', '/recent-accounts', { headers: { cookie: recentCookie }, ip: freshIp() });
  await app.request('GET', `/oauth/login?request=${requestId}`, {
    headers: { cookie: recentCookie },
    ip: freshIp(),
  });
  const servicePage = { cookie: recentCookie, origin: new URL(TEST_ISSUER).origin };
  await app.request('DELETE', '/recent-accounts/usr_unknown', { headers: servicePage, ip: freshIp() });
  await postForm(
    app,
    '/oauth/login/forget',
    { request: requestId, account: 'usr_unknown' },
    ownPage({ cookie: recentCookie }),
  );
  await app.request('DELETE', '/recent-accounts', { headers: servicePage, ip: freshIp() });
  const ownerCookie = `${real.deps.config.SERVICE_NAME}.session_token=${token}`;
  const consent = await app.request('GET', authorize, { headers: { cookie: ownerCookie }, ip: freshIp() });
  await postForm(app, '/oauth/consent', approvalOf(consent.text), ownPage({ cookie: ownerCookie }));

  // Sessions.
  await app.request('GET', '/auth/session', { headers: auth });
  await app.request('GET', '/auth/list-sessions', { headers: auth });
  await app.request('POST', '/auth/update-user', { headers: auth, body: { name: 'Ada' }, ip: freshIp() });

  // Management reads and writes.
  await manage(app, 'GET', '/organizations', { token });
  await manage(app, 'GET', `/organizations/${organizationId}`, { token });
  await manage(app, 'PATCH', `/organizations/${organizationId}`, { token }, { name: 'Acme Inc' });
  await manage(app, 'GET', `/organizations/${organizationId}/members`, { token });
  await manage(app, 'GET', `/organizations/${organizationId}/applications`, { token });
  await manage(app, 'GET', `/applications/${applicationId}`, { token });
  await manage(app, 'PATCH', `/applications/${applicationId}`, { token }, { name: 'Acme Notes 2' });
  await manage(app, 'GET', `/applications/${applicationId}/configuration`, { token });
  await manage(
    app,
    'PATCH',
    `/applications/${applicationId}/configuration`,
    { apiKey: secretKey },
    { authentication: { syntheticEmailDomain: 'bots.acme.test' } },
  );
  await manage(app, 'GET', `/applications/${applicationId}/api-keys`, { token });
  await app.request('GET', '/application/by-api-key', { headers: { 'x-api-key': publicKey } });
  const invitee = newEmail();
  await manage(
    app,
    'POST',
    `/organizations/${organizationId}/members`,
    { token },
    { email: invitee, role: 'admin' },
  );
  await manage(app, 'GET', '/invitations', { token });

  // An end user of the application signs in with its public key; the owner looks at it.
  const endUser = await signIn(app, newEmail(), { 'x-api-key': publicKey });
  const endAuth = bearer(endUser.token, { 'x-api-key': publicKey });
  await app.request('GET', '/auth/session', { headers: endAuth });
  const userId = endUser.body.user.id as string;
  await manage(app, 'GET', `/applications/${applicationId}/users`, { apiKey: secretKey });
  await manage(app, 'GET', `/applications/${applicationId}/users/search?q=user`, { apiKey: secretKey });
  await manage(app, 'GET', `/applications/${applicationId}/users/${userId}`, { apiKey: secretKey });
  await manage(app, 'GET', `/applications/${applicationId}/statistics`, { apiKey: secretKey });
  await manage(app, 'GET', `/applications/${applicationId}/audit`, { token });
  await manage(app, 'GET', `/organizations/${organizationId}/audit`, { token });
  await manage(app, 'GET', `/applications/${applicationId}/organizations`, { apiKey: secretKey });

  // Social sign-in (docs/social-sign-in.md): the owner's GitHub client, a trip through it, the exchange.
  social.github.clients.set(`gh-${applicationId}`, 'battery-github-secret');
  await manage(
    app,
    'PATCH',
    `/applications/${applicationId}/configuration`,
    { token },
    {
      socialProviders: {
        github: { enabled: true, clientId: `gh-${applicationId}`, clientSecret: 'battery-github-secret' },
      },
      socialReturnUrls: ['https://notes.acme.test/signed-in'],
    },
  );
  social.github.nextUser = {
    login: 'battery',
    name: null,
    emails: [{ email: newEmail(), primary: true, verified: true }],
  };
  const trip = await socialTrip(app, social, { applicationId, provider: 'github', ip: freshIp() });
  await app.request('POST', '/auth/social/exchange', {
    body: { code: trip.landed?.searchParams.get('code'), code_verifier: APP_VERIFIER },
    headers: { 'x-api-key': publicKey },
  });

  // Test automation: a synthetic address's code by the secret key, then the approve path.
  const bot = 'ci-bot@bots.acme.test';
  await app.request('POST', '/auth/code/start', {
    body: { email: bot },
    headers: { 'x-api-key': publicKey },
    ip: freshIp(),
  });
  const peeked = await app.request('POST', '/auth/code/peek', {
    body: { email: bot },
    headers: { 'x-api-key': secretKey },
    ip: freshIp(),
  });
  await app.request('POST', '/auth/code/approve', {
    body: { email: bot, code: peeked.body.code },
    headers: { 'x-api-key': publicKey },
    ip: freshIp(),
  });

  // Ending sessions.
  await app.request('POST', '/auth/revoke-other-sessions', { headers: endAuth, ip: freshIp() });
  await app.request('POST', '/auth/sign-out', { headers: endAuth, ip: freshIp() });
}

/** The device path, user administration, tenants, impersonation, platform members, OAuth tokens, teardown. */
export async function deviceAdministrationAndTeardownPaths({ app, metadata }: Battery): Promise<void> {
  const owned = await createOwnedApplication(app);
  const token = owned.owner.token;
  const { applicationId, organizationId, publicKey, secretKey } = owned;
  const secret = { apiKey: secretKey };

  // The device path: start, approve by code, poll for the session.
  const deviceEmail = newEmail();
  const started = await app.request('POST', '/auth/code/start', {
    body: { email: deviceEmail },
    headers: { 'x-api-key': publicKey },
    ip: freshIp(),
  });
  await app.request('POST', '/auth/code/approve', {
    body: { email: deviceEmail, code: await latestCode(deviceEmail) },
    headers: { 'x-api-key': publicKey },
    ip: freshIp(),
  });
  await app.request('POST', '/auth/code/poll', {
    body: { deviceCode: started.body.deviceCode },
    ip: freshIp(),
  });

  // Users of the application, administered by the secret key, and an impersonation.
  const user = await signIn(app, newEmail(), { 'x-api-key': publicKey });
  const userPath = `/applications/${applicationId}/users/${user.body.user.id}`;
  // A profile image, uploaded by the user and served; deleting the user deletes it too.
  const uploaded = await app.request('POST', '/auth/update-user', {
    body: { image: `data:image/gif;base64,${GIF_1x1}` },
    headers: bearer(user.token, { 'x-api-key': publicKey }),
    ip: freshIp(),
  });
  await app.request('GET', new URL(String(uploaded.body.user?.image)).pathname);
  await manage(app, 'PATCH', userPath, secret, { name: 'Grace' });
  const impersonated = await manage(
    app,
    'POST',
    `${userPath}/impersonate`,
    { token },
    { reason: 'support ticket' },
  );
  await app.request('POST', `/impersonation/${impersonated.body.impersonation?.id}/end`, {
    headers: bearer(impersonated.body.token),
    ip: freshIp(),
  });
  await manage(app, 'GET', `/applications/${applicationId}/audit`, { token });
  // Each of the managers' revoke-sessions, disable and delete ends a LIVE impersonation too (its
  // record and the audit trail are written then): one is started before each.
  const impersonate = () =>
    manage(app, 'POST', `${userPath}/impersonate`, { token }, { reason: 'support ticket' });
  const live = async () => expect((await impersonate()).status).toBe(201);
  await live();
  await manage(app, 'POST', `${userPath}/revoke-sessions`, secret);
  await live();
  await manage(app, 'POST', `${userPath}/disable`, secret);
  await manage(app, 'POST', `${userPath}/enable`, secret);

  // Tenant organizations of the application, with a member.
  const ada = await signIn(app, newEmail(), { 'x-api-key': publicKey });
  const bob = await signIn(app, newEmail(), { 'x-api-key': publicKey });
  const tenants = `/applications/${applicationId}/organizations`;
  const tenant = await manage(app, 'POST', tenants, secret, { name: 'Team Ada', email: ada.email });
  const tenantPath = `${tenants}/${tenant.body.id}`;
  await manage(app, 'GET', tenantPath, secret);
  await manage(app, 'PATCH', tenantPath, secret, { name: 'Team Ada 2' });
  await manage(app, 'POST', `${tenantPath}/members`, secret, { email: bob.email });
  await manage(app, 'GET', `${tenantPath}/members`, secret);
  await manage(app, 'PATCH', `${tenantPath}/members/${bob.body.user.id}`, secret, { role: 'admin' });
  await manage(app, 'DELETE', `${tenantPath}/members/${bob.body.user.id}`, secret);
  await manage(app, 'DELETE', tenantPath, secret);
  await live();
  await manage(app, 'DELETE', userPath, secret);

  // Platform members: one invitation accepted (then changed and removed), one declined. The admin
  // impersonates before its demotion and its removal, which end that impersonation (its record,
  // session and trail entry).
  const members = `/organizations/${organizationId}/members`;
  const invitee = await signIn(app);
  await manage(app, 'POST', members, { token }, { email: invitee.email, role: 'admin' });
  await manage(app, 'POST', `/invitations/${organizationId}/accept`, { token: invitee.token });
  const adaPath = `/applications/${applicationId}/users/${ada.body.user.id}/impersonate`;
  const asInvitee = async () =>
    expect(
      (await manage(app, 'POST', adaPath, { token: invitee.token }, { reason: 'support ticket' })).status,
    ).toBe(201);
  await asInvitee();
  await manage(app, 'PATCH', `${members}/${invitee.body.user.id}`, { token }, { role: 'member' });
  await manage(app, 'PATCH', `${members}/${invitee.body.user.id}`, { token }, { role: 'admin' });
  await asInvitee();
  await manage(app, 'DELETE', `${members}/${invitee.body.user.id}`, { token });
  const decliner = await signIn(app);
  await manage(app, 'POST', members, { token }, { email: decliner.email, role: 'admin' });
  await manage(app, 'DELETE', `/invitations/${organizationId}`, { token: decliner.token });
  // The organization's pending invitations: listed by a manager, one revoked.
  const revokedAddress = newEmail();
  await manage(app, 'POST', members, { token }, { email: revokedAddress, role: 'member' });
  await manage(app, 'GET', `/organizations/${organizationId}/invitations`, { token });
  await manage(app, 'DELETE', `/organizations/${organizationId}/invitations/${revokedAddress}`, { token });

  // OAuth (docs/oauth.md): a code exchanged, its refresh token rotated, the connection listed and revoked.
  const oauth = await connect(app, { userId: owned.owner.userId, applicationId });
  await refreshRequest(app, oauth.tokens.refresh_token);
  await manage(app, 'GET', '/auth/list-connections', { token });
  const grantId = JSON.parse(
    Buffer.from(oauth.tokens.access_token.split('.')[1] ?? '', 'base64url').toString(),
  ).gid;
  await manage(app, 'POST', '/auth/revoke-connection', { token }, { id: grantId });
  // A client revokes its own refresh token (RFC 7009): the token read by its hash, its grant revoked.
  const revoked = await connect(app, { userId: owned.owner.userId, applicationId });
  await postForm(
    app,
    '/oauth/revoke',
    { token: revoked.tokens.refresh_token, client_id: CLIENT.clientId },
    { 'content-type': 'application/x-www-form-urlencoded' },
  );
  // An external resource (its metadata names this issuer, RFC 9728): the exchange and the refresh
  // read its holder.
  const resource = metadata.serveResource('/families/mcp', TEST_ISSUER);
  await manage(
    app,
    'PATCH',
    `/applications/${applicationId}/configuration`,
    { token },
    {
      oauth: { resources: [resource] },
      // A provider with its client secret: the write seals it, every answer shows only { set }.
      socialProviders: {
        google: { enabled: true, clientId: 'battery.apps.example.com', clientSecret: 'battery-secret' },
      },
      socialReturnUrls: ['https://battery.example.com/after-sign-in'],
    },
  );
  // The application's social sign-in page (docs/api.md, "Social sign-in page"), and its Forget button (a 303
  // back to it).
  await app.request('GET', withChallenge(`/auth/social/${applicationId}?state=battery`), { ip: freshIp() });
  await postForm(app, `/auth/social/${applicationId}/forget`, {
    account: 'usr_unknown',
    state: 'battery',
    code_challenge: APP_CHALLENGE,
  });
  const external = await connect(app, { userId: owned.owner.userId, applicationId, resource });
  await refreshRequest(app, external.tokens.refresh_token);

  // Configuration replaced as read (the secret kept by its { set: true }) with one more return URL,
  // a key revoked, then the application and organization deleted.
  const configuration = await manage(app, 'GET', `/applications/${applicationId}/configuration`, { token });
  await manage(
    app,
    'PUT',
    `/applications/${applicationId}/configuration`,
    { token },
    {
      ...configuration.body,
      socialReturnUrls: [...configuration.body.socialReturnUrls, 'https://battery.example.com/again'],
    },
  );
  const keys = await manage(app, 'GET', `/applications/${applicationId}/api-keys`, { token });
  const publicEntry = (keys.body.items as Array<{ id: string; type: string }>).find(
    (k) => k.type === 'public',
  );
  await manage(app, 'DELETE', `/applications/${applicationId}/api-keys/${publicEntry?.id}`, { token });
  // Deleting the application ends its running impersonations.
  expect((await manage(app, 'POST', adaPath, { token }, { reason: 'support ticket' })).status).toBe(201);
  await manage(app, 'DELETE', `/applications/${applicationId}`, { token });
  await manage(app, 'DELETE', `/organizations/${organizationId}`, { token });
  // One of two sessions revoked by id, and the platform session refreshed (its token then changes).
  const second = await signIn(app, owned.owner.email);
  await app.request('POST', '/auth/revoke-session-by-id', {
    body: { id: second.body.session.id },
    headers: bearer(token),
    ip: freshIp(),
  });

  await app.request('POST', '/auth/refresh', { headers: bearer(token), ip: freshIp() });
}

/** The MCP endpoint: the seven tools and the two methods it refuses. */
export async function mcpPaths({ app, real }: Battery): Promise<void> {
  const owned = await createOwnedApplication(app);
  const user = await signIn(app, newEmail(), { 'x-api-key': owned.publicKey });
  const scopes = ['auth:read', 'auth:write'] as const;
  const token = await mcpAccessToken(real, owned.owner.userId, owned.applicationId, [...scopes]);
  const userId = user.body.user.id as string;
  const calls = [
    toolCall('', {}, 'tools/list'),
    toolCall('auth_get_application'),
    toolCall('auth_get_statistics'),
    toolCall('auth_search', { q: 'user' }),
    toolCall('auth_list_users'),
    toolCall('auth_get_user', { userId }),
    toolCall('auth_list_organizations'),
    toolCall('auth_revoke_user_sessions', { userId }),
  ];
  for (const call of calls) {
    const response = await mcpPost(app, owned.applicationId, bearer(token), call);
    expect(response.status, response.text).toBe(200);
  }
  await app.request('GET', `/mcp/${owned.applicationId}`);
  await app.request('DELETE', `/mcp/${owned.applicationId}`);
}
