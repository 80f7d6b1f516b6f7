import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { callbackUrl } from '../../shared/social/flow.ts';
import { TEST_ISSUER, type TestApp } from '../support/app.ts';
import { freshIp } from '../support/http-client.ts';
import { latestCode } from '../support/inbox.ts';
import { newEmail } from '../support/sign-in.ts';
import {
  exchangeCode,
  GITHUB_SECRET,
  githubSignsIn,
  OIDC_SECRET,
  oidcSignsIn,
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
} from '../support/social-providers.ts';
import { manage } from '../support/tenancy.ts';

let app: TestApp;
let providers: SocialProviders;
const answers: string[] = [];
beforeAll(async () => {
  // Every answer kept, so the last test can look for the owner's secrets in them.
  ({ app, providers } = await startSocialTestApp({
    onAnswer: (answer) => answers.push(`${JSON.stringify(answer.headers)} ${answer.text}`),
  }));
});
afterAll(() => app?.close());

type Provider = 'github' | 'oidc';

function provesEmail(provider: Provider, email: string): void {
  if (provider === 'github') githubSignsIn(providers, email);
  else oidcSignsIn(providers, email);
}

/** A whole social sign-in of `email` with `provider`: the exchanged SignInResult's user id. */
async function socialSignIn(owned: SocialApplication, provider: Provider, email: string): Promise<string> {
  provesEmail(provider, email);
  const trip = await socialTrip(app, providers, {
    applicationId: owned.applicationId,
    provider,
    ip: freshIp(),
  });
  expect(trip.callback?.status, trip.callback?.text ?? trip.start.text).toBe(303);
  const exchanged = await exchangeCode(app, owned.publicKey, trip.landed?.searchParams.get('code') as string);
  expect(exchanged.status, exchanged.text).toBe(200);
  return exchanged.body.user.id as string;
}

/** Code sign-in (start, the emailed code, verify) with the application's public key, as `typed`. */
async function codeSignIn(owned: SocialApplication, typed: string, inbox: string): Promise<string> {
  const headers = { 'x-api-key': owned.publicKey };
  const start = await app.request('POST', '/auth/code/start', {
    body: { email: typed },
    headers,
    ip: freshIp(),
  });
  expect(start.status, start.text).toBe(200);
  const code = await latestCode(inbox);
  const verify = await app.request('POST', '/auth/code/verify', {
    body: { email: typed, code },
    headers,
    ip: freshIp(),
  });
  expect(verify.status, verify.text).toBe(200);
  return verify.body.user.id as string;
}

/** The application's users and tenant organizations (with their members), through the management API. */
async function scopeOf(owned: SocialApplication) {
  const secret = { apiKey: owned.secretKey };
  const users = await manage(app, 'GET', `/applications/${owned.applicationId}/users`, secret);
  const orgs = await manage(app, 'GET', `/applications/${owned.applicationId}/organizations`, secret);
  expect(users.status, users.text).toBe(200);
  expect(orgs.status, orgs.text).toBe(200);
  const members = await Promise.all(
    (orgs.body.items as Array<{ id: string }>).map(async (org) => {
      const listed = await manage(
        app,
        'GET',
        `/applications/${owned.applicationId}/organizations/${org.id}/members`,
        secret,
      );
      return listed.body.items as Array<{ userId: string; role: string }>;
    }),
  );
  return {
    users: users.body.items as Array<{ id: string; email: string }>,
    organizations: orgs.body.items as Array<{ id: string; memberCount: number }>,
    members,
  };
}

describe('social sign-in end to end', () => {
  it('GitHub: the first sign-in creates the account, and the exchange code gives its session once', async () => {
    // Prepare
    const owned = await socialApplication(app, providers);
    const email = newEmail();
    githubSignsIn(providers, email);

    // Act
    const trip = await socialTrip(app, providers, {
      applicationId: owned.applicationId,
      provider: 'github',
      query: '?state=app-state-1',
      ip: freshIp(),
    });
    const code = trip.landed?.searchParams.get('code') as string;
    const exchanged = await exchangeCode(app, owned.publicKey, code);
    const again = await exchangeCode(app, owned.publicKey, code);

    // Assess
    const atProvider = new URL(trip.start.headers.location as string);
    expect(atProvider.searchParams.get('redirect_uri')).toBe(
      callbackUrl(TEST_ISSUER, owned.applicationId, 'github'),
    );
    expect(atProvider.searchParams.get('code_challenge_method')).toBe('S256');
    expect(trip.callback?.status, trip.callback?.text ?? trip.start.text).toBe(303);
    expect(`${trip.landed?.origin}${trip.landed?.pathname}`).toBe(SOCIAL_RETURN_URL);
    expect(trip.landed?.searchParams.get('state')).toBe('app-state-1');
    expect(exchanged.status, exchanged.text).toBe(200);
    expect(exchanged.body.user.email).toBe(email);
    expect(exchanged.body.user.name).toBe('Octo Cat');
    expect(again.status).toBe(400);
  });

  it('OpenID Connect: a verified email signs in', async () => {
    // Prepare
    const owned = await socialApplication(app, providers);
    const email = newEmail();

    // Act
    const userId = await socialSignIn(owned, 'oidc', email);

    // Assess
    const scope = await scopeOf(owned);
    expect(scope.users.map((user) => [user.id, user.email])).toEqual([[userId, email]]);
  });

  for (const provider of ['github', 'oidc'] as const) {
    it(`${provider}: the first sign-in creates the account and its tenant organization, which a later code sign-in reaches`, async () => {
      // Prepare
      const owned = await socialApplication(app, providers);
      const email = newEmail();

      // Act
      const social = await socialSignIn(owned, provider, email);
      const scopeAfterSocial = await scopeOf(owned);
      const byCode = await codeSignIn(owned, email.toUpperCase(), email);
      const again = await socialSignIn(owned, provider, email);

      // Assess
      expect(scopeAfterSocial.users.map((user) => [user.id, user.email])).toEqual([[social, email]]);
      expect(scopeAfterSocial.organizations).toEqual([expect.objectContaining({ memberCount: 1 })]);
      expect(scopeAfterSocial.members).toEqual([
        [expect.objectContaining({ userId: social, role: 'owner' })],
      ]);
      expect(byCode).toBe(social);
      expect(again).toBe(social);
      const scope = await scopeOf(owned);
      expect(scope.users).toHaveLength(1);
      expect(scope.organizations).toHaveLength(1);
    });

    it(`${provider}: a sign-in after a code sign-in of the same address reaches that account`, async () => {
      // Prepare
      const owned = await socialApplication(app, providers);
      const email = newEmail();
      const byCode = await codeSignIn(owned, email, email);

      // Act
      const social = await socialSignIn(owned, provider, email.toUpperCase());

      // Assess
      expect(social).toBe(byCode);
      const scope = await scopeOf(owned);
      expect(scope.users).toHaveLength(1);
      expect(scope.organizations).toHaveLength(1);
    });
  }

  it('10 parallel first callbacks of one new address make one account, one user, one organization', async () => {
    // Prepare
    const owned = await socialApplication(app, providers);
    const email = newEmail();
    oidcSignsIn(providers, email);
    const callbacks: string[] = [];
    for (let i = 0; i < 10; i++) {
      const { callbackPath } = await startAtProvider(app, providers, {
        applicationId: owned.applicationId,
        provider: 'oidc',
        ip: freshIp(),
      });
      callbacks.push(callbackPath as string);
    }

    // Act
    const answers = await Promise.all(
      callbacks.map((path) =>
        app.request('GET', path, { ip: freshIp(), headers: { cookie: browserCookie(app) } }),
      ),
    );
    const exchanged = await Promise.all(
      answers.map((answer) =>
        exchangeCode(
          app,
          owned.publicKey,
          new URL(answer.headers.location as string).searchParams.get('code') as string,
        ),
      ),
    );

    // Assess
    expect(answers.map((answer) => answer.status)).toEqual(Array(10).fill(303));
    expect(exchanged.map((answer) => answer.status)).toEqual(Array(10).fill(200));
    const ids = new Set(exchanged.map((answer) => answer.body.user.id as string));
    expect(ids.size).toBe(1);
    const scope = await scopeOf(owned);
    expect(scope.users.map((user) => user.id)).toEqual([...ids]);
    expect(scope.organizations).toHaveLength(1);
    expect(scope.members).toEqual([[expect.objectContaining({ userId: [...ids][0], role: 'owner' })]]);
  });

  it("shows the owner's client secrets in no answer and no log line of these sign-ins", () => {
    // Assess
    expect(answers.length).toBeGreaterThan(50);
    for (const secret of [GITHUB_SECRET, OIDC_SECRET]) {
      expect(answers.filter((answer) => answer.includes(secret))).toEqual([]);
      expect(app.logs.filter((line) => line.includes(secret))).toEqual([]);
    }
  });
});
