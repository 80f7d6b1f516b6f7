import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../support/app.ts';
import { freshIp } from '../support/http-client.ts';
import { newEmail } from '../support/sign-in.ts';
import {
  type SocialProviders,
  socialEnv,
  socialTrip,
  startSocialProviders,
} from '../support/social-providers.ts';
import { createOwnedApplication, manage } from '../support/tenancy.ts';

let app: TestApp;
let providers: SocialProviders;
beforeAll(async () => {
  providers = await startSocialProviders();
  app = await startTestApp({ env: socialEnv(providers) });
});
afterAll(async () => {
  await app?.close();
  await providers?.close();
});

const RETURN_URL = 'https://notes.acme.test/after-sign-in';

async function socialApplication() {
  const owned = await createOwnedApplication(app);
  const githubClient = `gh-${owned.applicationId}`;
  providers.github.clients.set(githubClient, 'gh-secret-of-the-owner');
  const configured = await manage(
    app,
    'PATCH',
    `/applications/${owned.applicationId}/configuration`,
    { token: owned.owner.token },
    {
      socialProviders: {
        github: { enabled: true, clientId: githubClient, clientSecret: 'gh-secret-of-the-owner' },
        oidc: {
          enabled: true,
          clientId: 'notes-client',
          clientSecret: 'oidc-secret-of-the-owner',
          issuer: providers.issuer,
        },
      },
      socialReturnUrls: [RETURN_URL],
    },
  );
  expect(configured.status).toBe(200);
  return owned;
}

describe('social sign-in end to end (issue 12)', () => {
  it('GitHub: the first sign-in creates the account, and the exchange code gives its session once', async () => {
    const owned = await socialApplication();
    const email = newEmail();
    providers.github.nextUser = {
      login: 'octo',
      name: 'Octo Cat',
      emails: [{ email, primary: true, verified: true }],
    };

    const trip = await socialTrip(app, providers, {
      applicationId: owned.applicationId,
      provider: 'github',
      query: '?state=app-state-1',
      ip: freshIp(),
    });

    expect(trip.callback?.status, trip.callback?.text ?? trip.start.text).toBe(303);
    expect(`${trip.landed?.origin}${trip.landed?.pathname}`).toBe(RETURN_URL);
    expect(trip.landed?.searchParams.get('state')).toBe('app-state-1');
    const code = trip.landed?.searchParams.get('code') as string;
    const exchanged = await app.request('POST', '/auth/social/exchange', {
      headers: { 'x-api-key': owned.publicKey },
      body: { code },
    });
    expect(exchanged.status, exchanged.text).toBe(200);
    expect(exchanged.body.user.email).toBe(email);
    expect(exchanged.body.user.name).toBe('Octo Cat');
    const again = await app.request('POST', '/auth/social/exchange', {
      headers: { 'x-api-key': owned.publicKey },
      body: { code },
    });
    expect(again.status).toBe(400);
  });

  it('OpenID Connect: a verified email signs in', async () => {
    const owned = await socialApplication();
    const email = newEmail();
    providers.claims.email = email;
    providers.claims.email_verified = true;
    const trip = await socialTrip(app, providers, {
      applicationId: owned.applicationId,
      provider: 'oidc',
      ip: freshIp(),
    });
    expect(trip.start.status, trip.start.text).toBe(302);
    expect(trip.callback?.status, trip.callback?.text).toBe(303);
    const code = trip.landed?.searchParams.get('code') as string;
    const exchanged = await app.request('POST', '/auth/social/exchange', {
      headers: { 'x-api-key': owned.publicKey },
      body: { code },
    });
    expect(exchanged.status, exchanged.text).toBe(200);
    expect(exchanged.body.user.email).toBe(email);
  });
});
