import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TestApp } from '../support/app.ts';
import {
  type ClientMetadataServer,
  startClientMetadataServer,
  testCertificates,
} from '../support/client-metadata-server.ts';
import { expectError } from '../support/expect-error.ts';
import { freshIp, type TestResponse } from '../support/http-client.ts';
import { newEmail } from '../support/sign-in.ts';
import {
  exchangeCode,
  githubSignsIn,
  OIDC_SECRET,
  SOCIAL_RETURN_URL,
  type SocialApplication,
  socialApplication,
} from '../support/social-application.ts';
import {
  browserCookie,
  type SocialProviders,
  socialTrip,
  startAtProvider,
  startSocialTestApp,
  withChallenge,
} from '../support/social-providers.ts';
import { manage } from '../support/tenancy.ts';

// The application page's own PKCE pair (docs/social-sign-in.md, "Security notes"): a code on a return URL is
// worth nothing without the verifier of the page that started the sign-in; and other refusals.
let app: TestApp;
let providers: SocialProviders;
let documents: ClientMetadataServer;
beforeAll(async () => {
  const certificates = await testCertificates();
  ({ app, providers } = await startSocialTestApp({ certificates }));
  documents = await startClientMetadataServer(certificates);
});
afterAll(async () => {
  await app?.close();
  await documents?.close();
});

function expectPage(response: TestResponse | undefined, status: number, words: RegExp): void {
  expect(response?.status, response?.text).toBe(status);
  expect(response?.headers['content-type']).toMatch(/^text\/html\b/);
  expect(response?.text).toMatch(words);
}

async function githubCode(owned: SocialApplication): Promise<string> {
  githubSignsIn(providers, newEmail());
  const trip = await socialTrip(app, providers, {
    applicationId: owned.applicationId,
    provider: 'github',
    ip: freshIp(),
  });
  expect(trip.callback?.status, trip.callback?.text ?? trip.start.text).toBe(303);
  return trip.landed?.searchParams.get('code') as string;
}

describe('the application page’s PKCE pair', () => {
  it('refuses a start without code_challenge (400 page), and a challenge that is not S256-shaped', async () => {
    // Prepare
    const owned = await socialApplication(app, providers);
    const path = `/auth/social/${owned.applicationId}/github`;

    // Act
    const missing = await app.request('GET', path, { ip: freshIp() });
    const short = await app.request('GET', `${path}?code_challenge=abc`, { ip: freshIp() });
    const plain = await app.request('GET', `${withChallenge(path)}&code_challenge_method=plain`, {
      ip: freshIp(),
    });

    // Assess
    for (const answer of [missing, short, plain]) expectPage(answer, 400, /The request query is not valid/);
  });

  it('refuses an exchange with another verifier (400 FORBIDDEN) without spending the code', async () => {
    // Prepare
    const owned = await socialApplication(app, providers);
    const code = await githubCode(owned);

    // Act
    const stolen = await exchangeCode(app, owned.publicKey, code, 'A'.repeat(43));
    const missing = await app.request('POST', '/auth/social/exchange', {
      headers: { 'x-api-key': owned.publicKey },
      body: { code },
    });
    const own = await exchangeCode(app, owned.publicKey, code);

    // Assess
    expectError(stolen, 400, 'FORBIDDEN');
    expectError(missing, 400, 'VALIDATION_ERROR');
    expect(own.status, own.text).toBe(200);
  });

  it('gives one session for 8 parallel exchanges of one code; the others are 400 FORBIDDEN', async () => {
    // Prepare
    const owned = await socialApplication(app, providers);
    const code = await githubCode(owned);

    // Act
    const answers = await Promise.all(
      Array.from({ length: 8 }, () => exchangeCode(app, owned.publicKey, code)),
    );

    // Assess
    expect(answers.filter((answer) => answer.status === 200)).toHaveLength(1);
    for (const answer of answers.filter((one) => one.status !== 200)) expectError(answer, 400, 'FORBIDDEN');
  });
});

describe('other refusals', () => {
  it('answers a callback with a valid state but neither code nor error with a 400 page', async () => {
    // Prepare
    const owned = await socialApplication(app, providers);
    githubSignsIn(providers, newEmail());
    const { callbackPath } = await startAtProvider(app, providers, {
      applicationId: owned.applicationId,
      provider: 'github',
      ip: freshIp(),
    });
    const url = new URL(callbackPath as string, 'https://x.test');
    url.searchParams.delete('code');

    // Act
    const answer = await app.request('GET', `${url.pathname}${url.search}`, {
      ip: freshIp(),
      headers: { cookie: browserCookie(app) },
    });

    // Assess
    expectPage(answer, 400, /sent no code back; start again/);
  });

  it('refuses an issuer whose discovery document has no authorization endpoint (502 page, not 500), and does not keep it', async () => {
    // Prepare
    const owned = await socialApplication(app, providers);
    const issuer = documents.url;
    documents.serve('/.well-known/openid-configuration', { body: { issuer } });
    const moved = await manage(
      app,
      'PATCH',
      `/applications/${owned.applicationId}/configuration`,
      { token: owned.owner.token },
      { socialProviders: { oidc: { enabled: true, clientId: 'c', issuer, clientSecret: OIDC_SECRET } } },
    );
    expect(moved.status, moved.text).toBe(200);
    const start = () =>
      app.request('GET', withChallenge(`/auth/social/${owned.applicationId}/oidc`), { ip: freshIp() });

    // Act
    const broken = await start();
    documents.serve('/.well-known/openid-configuration', {
      body: {
        issuer,
        authorization_endpoint: `${issuer}/authorize`,
        token_endpoint: `${issuer}/token`,
        response_types_supported: ['code'],
      },
    });
    const fixed = await start();

    // Assess
    expectPage(broken, 502, /OpenID Connect answered something this service cannot use/);
    expect(fixed.status, fixed.text).toBe(302);
    expect(String(fixed.headers.location)).toMatch(new RegExp(`^${issuer}/authorize\\?`));
  });

  it('accepts return_to spelled as the owner typed it (without the trailing slash the stored form has)', async () => {
    // Prepare
    const owned = await socialApplication(app, providers);
    const registered = await manage(
      app,
      'PATCH',
      `/applications/${owned.applicationId}/configuration`,
      { token: owned.owner.token },
      { socialReturnUrls: [SOCIAL_RETURN_URL, 'https://notes.acme.test'] },
    );
    expect(registered.status, registered.text).toBe(200);

    // Act
    const start = await app.request(
      'GET',
      withChallenge(
        `/auth/social/${owned.applicationId}/github?return_to=${encodeURIComponent('https://notes.acme.test')}`,
      ),
      { ip: freshIp() },
    );

    // Assess
    expect(start.status, start.text).toBe(302);
  });
});
