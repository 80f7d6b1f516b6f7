import { createServer } from 'node:net';
import { ScanCommand } from '@aws-sdk/lib-dynamodb';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TestApp } from '../support/app.ts';
import {
  type ClientMetadataServer,
  startClientMetadataServer,
  testCertificates,
} from '../support/client-metadata-server.ts';
import { freshIp, type TestResponse } from '../support/http-client.ts';
import { newEmail } from '../support/sign-in.ts';
import {
  githubSignsIn,
  OIDC_SECRET,
  oidcSignsIn,
  type SocialApplication,
  socialApplication,
} from '../support/social-application.ts';
import {
  browserCookie,
  type SocialProviders,
  startAtProvider,
  startSocialTestApp,
  withChallenge,
} from '../support/social-providers.ts';
import { manage } from '../support/tenancy.ts';

// Who is at fault when a social callback fails (docs/social-sign-in.md, "What the user sees when it
// fails"): an authorization response that fails its checks before the provider is called came with
// the browser, and anyone holding a state of their own can send one, so it is a 4xx; only a
// provider that fails (unreachable, or answering what cannot be used) is a 502, the status the
// `Api5xx` alarm counts (docs/operations.md).
let app: TestApp;
let providers: SocialProviders;
let issuerHost: ClientMetadataServer;
/** Token requests the OpenID Connect issuer answered. */
let oidcTokenRequests = 0;
beforeAll(async () => {
  const certificates = await testCertificates();
  ({ app, providers } = await startSocialTestApp({ certificates }));
  issuerHost = await startClientMetadataServer(certificates);
  providers.oidc.service.on('beforeResponse', () => {
    oidcTokenRequests += 1;
  });
});
afterAll(async () => {
  await app?.close();
  await issuerHost?.close();
});

/** An HTML error page of `status` whose words match `words`. */
function expectPage(response: TestResponse | undefined, status: number, words: RegExp): void {
  expect(response?.status, response?.text).toBe(status);
  expect(response?.headers['content-type']).toMatch(/^text\/html\b/);
  expect(response?.text).toMatch(words);
}

/** The application's items of `type`, read straight from the table. */
async function itemsOf(owned: SocialApplication, type: 'socialState' | 'socialCode') {
  const items: Record<string, unknown>[] = [];
  let cursor: Record<string, unknown> | undefined;
  do {
    const page = await app.deps.db.client.send(
      new ScanCommand({ TableName: app.deps.db.table, ConsistentRead: true, ExclusiveStartKey: cursor }),
    );
    items.push(...(page.Items ?? []));
    cursor = page.LastEvaluatedKey;
  } while (cursor);
  return items.filter((item) => item.type === type && item.applicationId === owned.applicationId);
}

/** The callback path with `extra` appended to the provider's query (a parameter may repeat). */
function withExtra(path: string, extra: Array<[string, string]>): string {
  const url = new URL(path, 'https://x.test');
  for (const [name, value] of extra) url.searchParams.append(name, value);
  return `${url.pathname}${url.search}`;
}

const callback = (path: string) =>
  app.request('GET', path, { ip: freshIp(), headers: { cookie: browserCookie(app) } });

/** A port on loopback nothing listens on. */
async function closedPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

/**
 * An application whose OpenID Connect issuer is `${issuerHost.url}/<name>`, its discovery document
 * naming `tokenEndpoint`, and the path of a callback for one of its sign-ins (`code` made up: the
 * provider's own pages are not visited).
 */
async function signInAtIssuer(name: string, tokenEndpoint: string): Promise<string> {
  const owned = await socialApplication(app, providers);
  const issuer = `${issuerHost.url}/${name}`;
  issuerHost.serve(`/${name}/.well-known/openid-configuration`, {
    body: {
      issuer,
      authorization_endpoint: `${issuer}/authorize`,
      token_endpoint: tokenEndpoint,
      response_types_supported: ['code'],
    },
  });
  const moved = await manage(
    app,
    'PATCH',
    `/applications/${owned.applicationId}/configuration`,
    { token: owned.owner.token },
    { socialProviders: { oidc: { enabled: true, clientId: 'c', issuer, clientSecret: OIDC_SECRET } } },
  );
  expect(moved.status, moved.text).toBe(200);
  const start = await app.request('GET', withChallenge(`/auth/social/${owned.applicationId}/oidc`), {
    ip: freshIp(),
    headers: { cookie: browserCookie(app) },
  });
  expect(start.status, start.text).toBe(302);
  const state = new URL(start.headers.location as string).searchParams.get('state') as string;
  return `/auth/social/${owned.applicationId}/oidc/callback?${new URLSearchParams({ code: 'c0de', state })}`;
}

describe('GET /auth/social/{applicationId}/{provider}/callback: an answer the browser brought', () => {
  const cases: Array<{
    what: string;
    provider: 'github' | 'oidc';
    extra: Array<[string, string]>;
    status: number;
    words: RegExp;
  }> = [
    {
      what: 'an RFC 9207 iss of another issuer (mix-up)',
      provider: 'github',
      extra: [['iss', 'https://attacker.example']],
      status: 403,
      words: /did not come from GitHub/,
    },
    {
      what: 'an RFC 9207 iss of another issuer (mix-up)',
      provider: 'oidc',
      extra: [['iss', 'https://attacker.example']],
      status: 403,
      words: /did not come from OpenID Connect/,
    },
    {
      what: 'a JARM response parameter',
      provider: 'github',
      extra: [['response', 'x']],
      status: 400,
      words: /The answer from GitHub cannot be used/,
    },
    {
      what: 'a second state (a malformed state)',
      provider: 'github',
      extra: [['state', 'x']],
      status: 400,
      words: /The answer from GitHub cannot be used/,
    },
    {
      what: 'a second code',
      provider: 'oidc',
      extra: [['code', 'x']],
      status: 400,
      words: /The answer from OpenID Connect cannot be used/,
    },
    {
      what: 'an implicit-flow token',
      provider: 'oidc',
      extra: [['id_token', 'x']],
      status: 400,
      words: /The answer from OpenID Connect cannot be used/,
    },
    {
      what: "a provider's error parameter with an iss of another issuer",
      provider: 'oidc',
      extra: [
        ['error', 'access_denied'],
        ['iss', 'https://attacker.example'],
      ],
      status: 403,
      words: /did not come from OpenID Connect/,
    },
    {
      what: 'two error parameters',
      provider: 'github',
      extra: [
        ['error', 'access_denied'],
        ['error', 'server_error'],
      ],
      status: 400,
      words: /The answer from GitHub cannot be used/,
    },
  ];
  for (const { what, provider, extra, status, words } of cases) {
    it(`${provider}: ${what} answers ${status} before the provider is called, and the state is spent`, async () => {
      // Prepare
      const owned = await socialApplication(app, providers);
      if (provider === 'github') githubSignsIn(providers, newEmail());
      else oidcSignsIn(providers, newEmail());
      const { callbackPath } = await startAtProvider(app, providers, {
        applicationId: owned.applicationId,
        provider,
        ip: freshIp(),
      });
      const tokenRequests = [providers.github.tokenRequests.length, oidcTokenRequests];

      // Act
      const answer = await callback(withExtra(callbackPath as string, extra));
      const again = await callback(callbackPath as string);

      // Assess
      expectPage(answer, status, words);
      expect([providers.github.tokenRequests.length, oidcTokenRequests]).toEqual(tokenRequests);
      expect(await itemsOf(owned, 'socialCode')).toHaveLength(0);
      // The state went with the refused answer: the real one, sent after it, is refused too.
      expectPage(again, 400, /unknown, was already used or has expired/);
    });
  }
});

describe('GET /auth/social/{applicationId}/{provider}/callback: a provider that fails', () => {
  it('answers a 502 page when the token endpoint cannot be reached', async () => {
    // Prepare
    const path = await signInAtIssuer('down', `https://localhost:${await closedPort()}/token`);

    // Act
    const answer = await callback(path);

    // Assess
    expectPage(answer, 502, /OpenID Connect could not be reached; try again/);
  });

  it('answers a 502 page when the token endpoint fails (503, even with an OAuth error body)', async () => {
    // Prepare
    const tokenEndpoint = issuerHost.serve('/busy/token', {
      status: 503,
      body: { error: 'temporarily_unavailable' },
    });
    const path = await signInAtIssuer('busy', tokenEndpoint);

    // Act
    const answer = await callback(path);

    // Assess
    expect(issuerHost.hits('/busy/token')).toBe(1);
    expectPage(answer, 502, /OpenID Connect answered something this service cannot use; start again/);
  });
});
