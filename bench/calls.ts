/**
 * AWS calls per request, for every endpoint: the real handlers over HTTP against DynamoDB Local
 * and the SES emulator, with an SDK middleware counting DynamoDB commands, a counting signer (the
 * KMS Sign call) and a counting mailer (the SES send). Costs on AWS follow from these counts.
 */
import { createHash, randomBytes, randomUUID } from 'node:crypto';
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { CallCounter } from '../fixtures/call-counter.ts';
import { type RequestOptions, send } from '../fixtures/loopback-client.ts';
import { metadataEnv, startClientMetadataServer, testCertificates } from '../fixtures/metadata-host.ts';
import {
  APP_CHALLENGE,
  APP_VERIFIER,
  providerGet,
  startSocialProviders,
  withChallenge,
} from '../fixtures/social-hosts.ts';
import { loadConfig } from '../shared/config.ts';
import { inMemoryCodeHasher } from '../shared/crypto/local-code-key.ts';
import { LocalSecretSealer } from '../shared/crypto/local-secret-sealer.ts';
import { generateLocalKeyPem, LocalSigner } from '../shared/crypto/local-signer.ts';
import { createDeps, type Deps } from '../shared/deps.ts';
import { ensureTable } from '../shared/local/create-table.ts';
import { startDynamoDbLocal } from '../shared/local/dynamodb-local.ts';
import { freePort } from '../shared/local/ports.ts';
import { startServer } from '../shared/local/server.ts';
import { startSesLocal } from '../shared/local/ses-local.ts';
import { issueAccessToken } from '../shared/oauth/access-token.ts';
import { issueAuthorizationCode } from '../shared/oauth/codes.ts';
import { newId } from '../shared/random.ts';
import { recentAccountsCookieName } from '../shared/sessions/recent-accounts.ts';
import { putGrant } from '../shared/store/oauth.ts';
import { createApiKey } from '../shared/tenancy/api-keys.ts';
import { createFixtureApplication } from '../shared/tenancy/applications.ts';
import type { AuditRequest } from '../shared/tenancy/audit.ts';
import { patchConfiguration } from '../shared/tenancy/configuration.ts';
import { ownMcpResource } from '../shared/tenancy/service-resources.ts';
import type { Benchmark } from './types.ts';

/** The fields of an answer the bench reads back (the rest is only counted). */
interface Answer {
  token?: string;
  deviceCode?: string;
  id?: string;
  key?: string;
  user?: { id: string };
  access_token?: string;
  refresh_token?: string;
}

interface Row {
  request: string;
  status: number;
  dynamodb: number;
  commands: string;
  kmsSign: number;
  sesSend: number;
}

/** A live grant of `userId` on the application's MCP endpoint, and the header of an access token of it. */
async function mcpBearer(deps: Deps, userId: string, applicationId: string) {
  const resource = ownMcpResource(deps.config.ISSUER, applicationId);
  const grantId = newId(deps.random, 'grt');
  const clientId = 'https://client.bench.test/metadata.json';
  const now = Math.floor(deps.clock.now() / 1000);
  const scopes = ['auth:read', 'auth:write'] as const;
  await putGrant(deps.db, {
    ...{ grantId, userId, clientId, clientName: 'Bench client', applicationId, resource },
    ...{ scopes: [...scopes], createdAt: now, lastUsedAt: now },
  });
  const issued = await issueAccessToken(deps, { userId, resource, scopes, clientId, grantId });
  return { authorization: `Bearer ${issued.accessToken}` };
}

/** One JSON-RPC message of revision 2026-07-28 with its transport headers. */
function mcpMessage(bearer: Record<string, string>, method: string, name?: string, args = {}) {
  const meta = {
    'io.modelcontextprotocol/protocolVersion': '2026-07-28',
    'io.modelcontextprotocol/clientInfo': { name: 'bench', version: '1.0.0' },
    'io.modelcontextprotocol/clientCapabilities': {},
  };
  return {
    body: {
      jsonrpc: '2.0',
      id: 1,
      method,
      params: { ...(name ? { name, arguments: args } : {}), _meta: meta },
    },
    headers: {
      ...bearer,
      accept: 'application/json, text/event-stream',
      'mcp-protocol-version': '2026-07-28',
      'mcp-method': method,
      ...(name ? { 'mcp-name': name } : {}),
    },
  };
}

export const callsBenchmark: Benchmark = {
  name: 'calls',
  description: 'DynamoDB, KMS Sign and SES calls per request, for every endpoint',
  async run(ctx) {
    process.env.AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED = 'true';
    const dynamo = await startDynamoDbLocal({ port: await freePort() });
    const ses = await startSesLocal({ port: await freePort() });
    const table = `bench-${randomUUID()}`;
    await ensureTable(dynamo.endpoint, table);
    const origin = 'https://app.bench.test';
    // The client ID metadata document of the OAuth rows, on an HTTPS host of loopback with a test CA.
    // The social rows' GitHub-style provider (fixtures/social-hosts.ts), under the metadata host's CA.
    const certificates = await testCertificates();
    const metadata = await startClientMetadataServer(certificates);
    const social = await startSocialProviders(certificates);
    const config = loadConfig({
      ...metadataEnv(metadata),
      SOCIAL_GITHUB_URL: social.github.url,
      TABLE_NAME: table,
      ISSUER: 'https://auth.bench.test',
      MAIL_FROM: 'no-reply@bench.test',
      PLATFORM_ORIGINS: origin,
      DYNAMODB_ENDPOINT: dynamo.endpoint,
      SES_ENDPOINT: ses.endpoint,
      LOG_LEVEL: 'silent',
    });
    const counter = new CallCounter();
    // The poll interval is 5 s: the clock is moved instead of waiting.
    const clock = { offset: 0, now: () => Date.now() + clock.offset };
    const deps = createDeps(config, {
      signer: counter.signer(new LocalSigner(generateLocalKeyPem())),
      codeHasher: inMemoryCodeHasher(),
      // The social rows seal and open an owner's client secret (KMS in production).
      sealer: new LocalSecretSealer(randomBytes(32)),
      clock,
    });
    const counted = { ...deps, mailer: counter.mailer(deps.mailer) };
    counter.watch(counted);
    const server = await startServer({ port: 0, deps: counted });
    const rows: Row[] = [];
    let ip = 10;
    const call = async (label: string, method: string, path: string, options: RequestOptions = {}) => {
      counter.reset();
      const response = await send<Answer>(server.url, method, path, { ip: `127.0.9.${ip++}`, ...options });
      const calls = counter.snapshot();
      rows.push({
        request: label,
        status: response.status,
        dynamodb: calls.dynamodb,
        commands: calls.commands.map((c) => c.replace(/Command$/, '')).join(', '),
        kmsSign: calls.kmsSign,
        sesSend: calls.sesSend,
      });
      return response;
    };
    const codeOf = async (email: string) => {
      const { emails } = (await (await fetch(`${ses.endpoint}/store`)).json()) as {
        emails: Array<{ destination: { to: string[] }; body: { text?: string } }>;
      };
      const text = emails.filter((e) => e.destination.to.includes(email)).at(-1)?.body.text ?? '';
      return /\b[A-Z2-9]{4}-[A-Z2-9]{4}\b/.exec(text)?.[0] ?? '';
    };

    try {
      const app = await createFixtureApplication(counted, {
        organizationId: 'org_bench',
        name: 'Bench',
        configuration: { authentication: { syntheticEmailDomain: 'synthetic.bench.test' } },
      });
      const operator: AuditRequest = { actor: { kind: 'service' }, ip: '127.0.0.1', userAgent: 'bench' };
      const keyOf = async (type: 'public' | 'secret') =>
        (
          await createApiKey(counted, operator, {
            applicationId: app.id,
            organizationId: app.organizationId,
            type,
          })
        ).key;
      const publicKey = await keyOf('public');
      const secretKey = await keyOf('secret');
      const key = { 'x-api-key': publicKey };
      const benchOwner = {
        id: 'usr_bench_owner',
        email: 'owner@bench.test',
        name: null,
        image: null,
        emailVerified: true,
        createdAt: new Date(0).toISOString(),
      };
      const json = (body: unknown, headers: Record<string, string> = {}) => ({ body, headers });

      await call('GET /', 'GET', '/');
      await call('GET /status', 'GET', '/status');
      await call('GET /.well-known/jwks.json', 'GET', '/.well-known/jwks.json');
      await call(
        'GET /.well-known/oauth-authorization-server',
        'GET',
        '/.well-known/oauth-authorization-server',
      );
      await call('GET /.well-known/oauth-protected-resource', 'GET', '/.well-known/oauth-protected-resource');
      await call(
        'GET /.well-known/oauth-protected-resource/mcp/{id}',
        'GET',
        `/.well-known/oauth-protected-resource/mcp/${app.id}`,
      );

      await call('start (platform)', 'POST', '/auth/code/start', json({ email: 'p@bench.test' }));
      const platform = await call('verify (platform, first sign-in)', 'POST', '/auth/code/verify', {
        body: { email: 'p@bench.test', code: await codeOf('p@bench.test') },
      });

      const email = 'a@bench.test';
      await call('start (application key)', 'POST', '/auth/code/start', json({ email }, key));
      await call('verify (wrong code)', 'POST', '/auth/code/verify', json({ email, code: 'AAAA-AAAA' }, key));
      const first = await call(
        'verify (application, first sign-in)',
        'POST',
        '/auth/code/verify',
        json({ email, code: await codeOf(email) }, key),
      );
      await send(server.url, 'POST', '/auth/code/start', { ...json({ email }, key), ip: '127.0.8.1' });
      const second = await call(
        'verify (application, existing account)',
        'POST',
        '/auth/code/verify',
        json({ email, code: await codeOf(email) }, { ...key, origin }),
      );

      const headless = 'h@bench.test';
      const started = await send<Answer>(server.url, 'POST', '/auth/code/start', {
        body: { email: headless },
        ip: '127.0.8.2',
      });
      const deviceCode = started.body.deviceCode as string;
      await call('poll (pending, 428)', 'POST', '/auth/code/poll', json({ deviceCode }));
      await call(
        'approve',
        'POST',
        '/auth/code/approve',
        json({ email: headless, code: await codeOf(headless) }),
      );
      clock.offset = 6000;
      await call('poll (approved, 200)', 'POST', '/auth/code/poll', json({ deviceCode }));

      const synthetic = 'x@synthetic.bench.test';
      await send(server.url, 'POST', '/auth/code/start', {
        ...json({ email: synthetic }, key),
        ip: '127.0.8.3',
      });
      await call('peek', 'POST', '/auth/code/peek', json({ email: synthetic }, { 'x-api-key': secretKey }));
      await call(
        'GET /applications/{id}/statistics (secret key)',
        'GET',
        `/applications/${app.id}/statistics`,
        {
          headers: { 'x-api-key': secretKey },
        },
      );

      // Social sign-in (docs/social-sign-in.md) with GitHub: start, the provider, the callback (first
      // sign-in, then an existing account) and the exchange of its code by the application.
      social.github.clients.set('bench-github', 'bench-github-secret');
      social.github.nextUser = {
        login: 'bench',
        name: 'Bench',
        emails: [{ email: 's@bench.test', primary: true, verified: true }],
      };
      // Social sign-in is an owner's or admin's to set (never the secret key's): the fixture
      // application has no owner session, so the bench sets it as an owner through the domain.
      await patchConfiguration(
        deps,
        operator,
        {
          target: 'application',
          application: app,
          current: true,
          principal: { kind: 'member', role: 'owner', user: benchOwner },
        },
        {
          socialProviders: {
            github: { enabled: true, clientId: 'bench-github', clientSecret: 'bench-github-secret' },
          },
          socialReturnUrls: [`${origin}/after-sign-in`],
        },
      );
      const socialCallback = async (label: string, countStart: boolean) => {
        const startPath = withChallenge(`/auth/social/${app.id}/github`);
        // The browser's binding (shared/social/browser-binding.ts): the start keeps it, the callback shows it.
        const browser = {
          headers: { cookie: `__Host-${config.SERVICE_NAME}.social_binding=${'B'.repeat(43)}` },
        };
        const started = countStart
          ? await call('GET /auth/social/{id}/github (start)', 'GET', startPath, browser)
          : await send(server.url, 'GET', startPath, { ip: '127.8.0.10', ...browser });
        const back = new URL(
          (await providerGet(social, started.headers.location as string)).location as string,
        );
        const landed = await call(
          `GET /auth/social/{id}/github/callback (${label})`,
          'GET',
          `${back.pathname}${back.search}`,
          browser,
        );
        if (landed.status !== 303)
          throw new Error(`social callback answered ${landed.status}: ${landed.text}`);
        return new URL(landed.headers.location as string).searchParams.get('code') as string;
      };
      const socialCode = await socialCallback('first sign-in', true);
      await socialCallback('existing account', false);
      await call(
        'POST /auth/social/exchange',
        'POST',
        '/auth/social/exchange',
        json({ code: socialCode, code_verifier: APP_VERIFIER }, key),
      );

      const token = first.body.token as string;
      const bearer = { authorization: `Bearer ${token}` };
      const cookie = String(second.headers['set-cookie']?.[0] ?? '').split(';')[0] ?? '';
      await call('GET /auth/session (anonymous)', 'GET', '/auth/session');
      await call('GET /auth/session (key only)', 'GET', '/auth/session', { headers: key });
      await call('GET /auth/session (Bearer)', 'GET', '/auth/session', { headers: bearer });
      await call('GET /auth/session (Bearer + key)', 'GET', '/auth/session', {
        headers: { ...bearer, ...key },
      });
      await call('GET /auth/session (cookie + key)', 'GET', '/auth/session', { headers: { cookie, ...key } });
      await call('GET /auth/list-sessions', 'GET', '/auth/list-sessions', { headers: bearer });
      await call('POST /auth/update-user', 'POST', '/auth/update-user', json({ name: 'Bench' }, bearer));
      await call(
        'POST /auth/revoke-session-by-id',
        'POST',
        '/auth/revoke-session-by-id',
        json({ id: 'ses_x' }, bearer),
      );
      const refreshed = await call('POST /auth/refresh', 'POST', '/auth/refresh', { headers: bearer });
      const newBearer = { authorization: `Bearer ${refreshed.body.token}` };
      await call('POST /auth/revoke-other-sessions', 'POST', '/auth/revoke-other-sessions', {
        headers: newBearer,
      });
      await call('POST /auth/sign-out', 'POST', '/auth/sign-out', { headers: newBearer });

      // Management (docs/api.md, "Management API"): the bootstrap of an agent and every route of the area, as
      // the owner.
      const owner = { authorization: `Bearer ${platform.body.token}` };
      const org = await call('POST /organizations', 'POST', '/organizations', json({ name: 'Bench' }, owner));
      const orgPath = `/organizations/${org.body.id}`;
      await call('GET /organizations', 'GET', '/organizations', { headers: owner });
      await call('GET /organizations/{id}', 'GET', orgPath, { headers: owner });
      await call('PATCH /organizations/{id}', 'PATCH', orgPath, json({ name: 'Bench Two' }, owner));
      const created = await call(
        'POST /application/{organizationId}',
        'POST',
        `/application/${org.body.id}`,
        json({ name: 'Bench App' }, owner),
      );
      const appPath = `/applications/${created.body.id}`;
      await call('GET /organizations/{id}/applications', 'GET', `${orgPath}/applications`, {
        headers: owner,
      });
      await call('GET /applications/{id}', 'GET', appPath, { headers: owner });
      await call('PATCH /applications/{id}', 'PATCH', appPath, json({ name: 'Bench App Two' }, owner));
      const made = await call(
        'POST /api-keys',
        'POST',
        '/api-keys',
        json({ applicationId: created.body.id, type: 'secret' }, owner),
      );
      await call('GET /applications/{id} (secret key)', 'GET', appPath, {
        headers: { 'x-api-key': made.body.key as string },
      });
      await call('GET /application/by-api-key', 'GET', '/application/by-api-key', {
        headers: { 'x-api-key': made.body.key as string },
      });
      await call('GET /applications/{id}/api-keys', 'GET', `${appPath}/api-keys`, { headers: owner });
      await call(
        'DELETE /applications/{id}/api-keys/{keyId}',
        'DELETE',
        `${appPath}/api-keys/${made.body.id}`,
        { headers: owner },
      );
      await send(server.url, 'POST', '/auth/code/start', {
        body: { email: 'm@bench.test' },
        ip: '127.0.8.4',
      });
      const joining = await send<Answer>(server.url, 'POST', '/auth/code/verify', {
        body: { email: 'm@bench.test', code: await codeOf('m@bench.test') },
        ip: '127.0.8.5',
      });
      const joiner = { authorization: `Bearer ${joining.body.token}` };
      await call('GET /organizations/{id}/members', 'GET', `${orgPath}/members`, { headers: owner });
      await call(
        'POST /organizations/{id}/members (invite)',
        'POST',
        `${orgPath}/members`,
        json({ email: 'm@bench.test' }, owner),
      );
      await call('GET /invitations', 'GET', '/invitations', { headers: joiner });
      await call('POST /invitations/{organizationId}/accept', 'POST', `/invitations/${org.body.id}/accept`, {
        headers: joiner,
      });
      const memberPath = `${orgPath}/members/${joining.body.user?.id}`;
      await call(
        'PATCH /organizations/{id}/members/{userId}',
        'PATCH',
        memberPath,
        json({ role: 'admin' }, owner),
      );
      await call('DELETE /organizations/{id}/members/{userId}', 'DELETE', memberPath, { headers: owner });

      // Configuration, end users, tenant organizations, impersonation and its audit trail.
      const appKey = await send<Answer>(server.url, 'POST', '/api-keys', {
        ...json({ applicationId: created.body.id, type: 'public' }, owner),
        ip: '127.0.8.6',
      });
      const appKeyHeader = { 'x-api-key': appKey.body.key as string };
      await call('GET /applications/{id}/configuration', 'GET', `${appPath}/configuration`, {
        headers: owner,
      });
      await call(
        'PATCH /applications/{id}/configuration',
        'PATCH',
        `${appPath}/configuration`,
        json({ authentication: { syntheticEmailDomain: 'bots.bench.test' } }, owner),
      );
      await call(
        'PUT /applications/{id}/configuration',
        'PUT',
        `${appPath}/configuration`,
        json(
          {
            authentication: { syntheticEmailDomain: 'bots.bench.test' },
            // A resource of another server must name this issuer in its metadata (RFC 9728).
            oauth: { resources: [metadata.serveResource('/api/mcp', config.ISSUER)] },
            origin: null,
            socialProviders: { google: null, github: null, microsoft: null, oidc: null },
            socialReturnUrls: [],
          },
          owner,
        ),
      );
      await send(server.url, 'POST', '/auth/code/start', {
        ...json({ email: 'u@bench.test', name: 'Una' }, appKeyHeader),
        ip: '127.0.8.7',
      });
      const endUser = await send<Answer>(server.url, 'POST', '/auth/code/verify', {
        ...json({ email: 'u@bench.test', code: await codeOf('u@bench.test') }, appKeyHeader),
        ip: '127.0.8.8',
      });
      const userPath = `${appPath}/users/${endUser.body.user?.id}`;
      await call('GET /applications/{id}/users', 'GET', `${appPath}/users`, { headers: owner });
      await call('GET /applications/{id}/users/search', 'GET', `${appPath}/users/search?q=un`, {
        headers: owner,
      });
      await call('GET /applications/{id}/users/{userId}', 'GET', userPath, { headers: owner });
      await call(
        'PATCH /applications/{id}/users/{userId}',
        'PATCH',
        userPath,
        json({ name: 'Una B' }, owner),
      );
      await call('GET /applications/{id}/organizations', 'GET', `${appPath}/organizations`, {
        headers: owner,
      });
      const impersonated = await call(
        'POST /applications/{id}/users/{userId}/impersonate',
        'POST',
        `${userPath}/impersonate`,
        json({ reason: 'Bench: ticket 1' }, owner),
      );
      const impersonation = impersonated.body as Answer & { impersonation?: { id: string } };
      await call(
        'POST /impersonation/{id}/end',
        'POST',
        `/impersonation/${impersonation.impersonation?.id}/end`,
        {
          headers: { authorization: `Bearer ${impersonated.body.token}` },
        },
      );
      await call('GET /applications/{id}/audit', 'GET', `${appPath}/audit`, { headers: owner });

      // The MCP endpoint: a grant and its access token as the token route leaves them (its issue
      // sign is not counted here), then one call per tool, the write last but one. Each costs the
      // tool's own work plus a BatchGetItem (grant, application) and a GetItem (the owner's membership).
      const applicationId = created.body.id as string;
      const mcp = await mcpBearer(counted, platform.body.user?.id as string, applicationId);
      const mcpPath = `/mcp/${applicationId}`;
      const tools: Array<[string, Record<string, unknown>]> = [
        ['auth_get_application', {}],
        ['auth_get_statistics', {}],
        ['auth_search', { q: 'un' }],
        ['auth_list_users', {}],
        ['auth_get_user', { userId: endUser.body.user?.id }],
        ['auth_list_organizations', {}],
        ['auth_revoke_user_sessions', { userId: endUser.body.user?.id }],
      ];
      await call('POST /mcp/{id} tools/list', 'POST', mcpPath, mcpMessage(mcp, 'tools/list'));
      for (const [name, args] of tools) {
        await call(`POST /mcp/{id} ${name}`, 'POST', mcpPath, mcpMessage(mcp, 'tools/call', name, args));
      }
      await call(
        'POST /applications/{id}/users/{userId}/revoke-sessions',
        'POST',
        `${userPath}/revoke-sessions`,
        {
          headers: owner,
        },
      );
      await call('POST /applications/{id}/users/{userId}/disable', 'POST', `${userPath}/disable`, {
        headers: owner,
      });
      await call('POST /applications/{id}/users/{userId}/enable', 'POST', `${userPath}/enable`, {
        headers: owner,
      });
      // OAuth (docs/oauth.md): a code as consent issues it, exchanged; its refresh token rotated; the
      // connection listed and revoked.
      const verifier = randomBytes(32).toString('base64url');
      const redirectUri = 'http://127.0.0.1:9/cb';
      const client = {
        clientId: metadata.serveClient('/client.json', { redirect_uris: [redirectUri] }),
        redirectUri,
      };
      const resource = ownMcpResource(config.ISSUER, created.body.id as string);
      const form = (fields: Record<string, string>, headers: Record<string, string> = {}) => ({
        raw: new URLSearchParams(fields).toString(),
        headers: { 'content-type': 'application/x-www-form-urlencoded', ...headers },
      });
      // The browser's side: authorize without a session (to the sign-in bridge), the bridge's pages,
      // authorize again with the cookie (the consent page), and the approval (the client's metadata
      // document is fetched once, then cached).
      const authorize = `/oauth/authorize?${new URLSearchParams({
        client_id: client.clientId,
        redirect_uri: client.redirectUri,
        response_type: 'code',
        code_challenge: createHash('sha256').update(verifier).digest('base64url'),
        code_challenge_method: 'S256',
        resource,
        state: 'bench',
      })}`;
      const ownPage = { origin: new URL(config.ISSUER).origin, 'sec-fetch-site': 'same-origin' };
      const hidden = (html: string, name: string) =>
        new RegExp(`name="${name}" value="([^"]*)"`).exec(html)?.[1] ?? '';
      const bridge = await call('GET /oauth/authorize (no session)', 'GET', authorize);
      const requestId =
        new URL(String(bridge.headers.location), config.ISSUER).searchParams.get('request') ?? '';
      await call('GET /oauth/login', 'GET', `/oauth/login?request=${requestId}`);
      const bridgeEmail = 'p@bench.test';
      await call(
        'POST /oauth/login',
        'POST',
        '/oauth/login',
        form({ request: requestId, email: bridgeEmail }, ownPage),
      );
      const signedIn = await call(
        'POST /oauth/login/verify',
        'POST',
        '/oauth/login/verify',
        form({ request: requestId, email: bridgeEmail, code: await codeOf(bridgeEmail) }, ownPage),
      );
      const bridgeCookie = [signedIn.headers['set-cookie']].flat().join('; ').split(';')[0] ?? '';
      // The browser's recent accounts (docs/api.md, "Recent accounts"), from the cookie the verify set.
      const recentCookie =
        [signedIn.headers['set-cookie']]
          .flat()
          .map((line) => String(line).split(';')[0] ?? '')
          .find((pair) => pair.startsWith(`${recentAccountsCookieName(config)}=`)) ?? '';
      await call('GET /recent-accounts', 'GET', '/recent-accounts', { headers: { cookie: recentCookie } });
      await call('GET /oauth/login (recent accounts)', 'GET', `/oauth/login?request=${requestId}`, {
        headers: { cookie: recentCookie },
      });
      const recentPage = { cookie: recentCookie, origin: new URL(config.ISSUER).origin };
      await call('DELETE /recent-accounts/{userId}', 'DELETE', '/recent-accounts/usr_unknown', {
        headers: recentPage,
      });
      await call(
        'POST /oauth/login/forget',
        'POST',
        '/oauth/login/forget',
        form({ request: requestId, account: 'usr_unknown' }, { ...ownPage, cookie: recentCookie }),
      );
      await call('DELETE /recent-accounts', 'DELETE', '/recent-accounts', { headers: recentPage });
      // The application's social sign-in page (docs/api.md, "Social sign-in page") and its Forget button.
      await send(server.url, 'PATCH', `${appPath}/configuration`, {
        ...json({ socialReturnUrls: ['https://app.bench.test/after-sign-in'] }, owner),
        ip: '127.0.8.9',
      });
      const socialPage = `/auth/social/${created.body.id}`;
      await call('GET /auth/social/{applicationId}', 'GET', withChallenge(socialPage));
      await call(
        'POST /auth/social/{applicationId}/forget',
        'POST',
        `${socialPage}/forget`,
        form({ account: 'usr_unknown', code_challenge: APP_CHALLENGE }, { ...ownPage, cookie: recentCookie }),
      );
      const consent = await call('GET /oauth/authorize (session: consent page)', 'GET', authorize, {
        headers: { cookie: bridgeCookie },
      });
      const approved = await call(
        'POST /oauth/consent (approve)',
        'POST',
        '/oauth/consent',
        form(
          {
            request: hidden(consent.text, 'request'),
            csrf: hidden(consent.text, 'csrf'),
            decision: 'approve',
            confirm: 'yes',
          },
          { ...ownPage, cookie: bridgeCookie },
        ),
      );
      const code = new URL(String(approved.headers.location)).searchParams.get('code') ?? '';
      const exchanged = await call(
        'POST /oauth/token (authorization_code)',
        'POST',
        '/oauth/token',
        form({
          grant_type: 'authorization_code',
          code,
          code_verifier: verifier,
          client_id: client.clientId,
          redirect_uri: client.redirectUri,
          resource,
        }),
      );
      await call(
        'POST /oauth/token (refresh_token)',
        'POST',
        '/oauth/token',
        form({ grant_type: 'refresh_token', refresh_token: exchanged.body.refresh_token as string }),
      );
      // The same for the external resource the configuration registered: each grant also reads
      // that the application still holds it (one more GetItem).
      const externalResource = 'https://api.bench.test/mcp';
      const externalCode = await issueAuthorizationCode(counted, {
        clientId: client.clientId,
        clientName: 'Bench Agent',
        redirectUri: client.redirectUri,
        codeChallenge: createHash('sha256').update(verifier).digest('base64url'),
        resource: externalResource,
        applicationId: created.body.id as string,
        userId: platform.body.user?.id as string,
        scopes: ['auth:read', 'auth:write'],
      });
      const externalExchanged = await call(
        'POST /oauth/token (authorization_code, external resource)',
        'POST',
        '/oauth/token',
        form({
          grant_type: 'authorization_code',
          code: externalCode,
          code_verifier: verifier,
          client_id: client.clientId,
          redirect_uri: client.redirectUri,
          resource: externalResource,
        }),
      );
      await call(
        'POST /oauth/token (refresh_token, external resource)',
        'POST',
        '/oauth/token',
        form({ grant_type: 'refresh_token', refresh_token: externalExchanged.body.refresh_token as string }),
      );
      await call('GET /auth/list-connections', 'GET', '/auth/list-connections', { headers: owner });
      const grantId = JSON.parse(
        Buffer.from(String(exchanged.body.access_token).split('.')[1] ?? '', 'base64url').toString(),
      ).gid;
      await call(
        'POST /auth/revoke-connection',
        'POST',
        '/auth/revoke-connection',
        json({ id: grantId }, owner),
      );
      await call('DELETE /applications/{id}/users/{userId}', 'DELETE', userPath, { headers: owner });
      await call('DELETE /applications/{id}', 'DELETE', appPath, { headers: owner });
      await call('DELETE /organizations/{id}', 'DELETE', orgPath, { headers: owner });
    } finally {
      await social.close();
      await metadata.close();
      await server.close();
      await ses.stop();
      await dynamo.stop();
    }

    const lines = [
      '| request | status | DynamoDB calls | commands | KMS Sign | SES send |',
      '|---|--:|--:|---|--:|--:|',
      ...rows.map(
        (r) => `| ${r.request} | ${r.status} | ${r.dynamodb} | ${r.commands} | ${r.kmsSign} | ${r.sesSend} |`,
      ),
    ];
    const markdown = lines.join('\n');
    console.log(markdown);
    await writeFile(join(ctx.outDir, 'calls.md'), `${markdown}\n`);
  },
};
