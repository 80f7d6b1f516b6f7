import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { DoorcodeError } from '../../sdk/src/index.ts';
import { startTestApp, type TestApp } from '../support/app.ts';
import { FakeOrigin, FakeService } from '../support/fake-browser.ts';
import { freshIp } from '../support/http-client.ts';
import { newEmail } from '../support/sign-in.ts';
import {
  exchangeCode,
  githubSignsIn,
  SOCIAL_RETURN_URL,
  type SocialApplication,
  socialApplication,
} from '../support/social-application.ts';
import {
  type SocialProviders,
  socialEnv,
  socialTrip,
  startSocialProviders,
} from '../support/social-providers.ts';

/**
 * The SDK's social sign-in against the local service: a real trip (start, the GitHub-style
 * provider, the callback) gives a real one-time code on the return URL, which the SDK, in a fake
 * tab whose unscripted requests go to the local server, exchanges for a session.
 */

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
afterEach(() => {
  vi.unstubAllGlobals();
});

/** The rejection of `promise` (fails when it resolves). */
async function rejectionOf(promise: Promise<unknown>): Promise<any> {
  return promise.then(
    () => {
      throw new Error('expected a rejection');
    },
    (error: unknown) => error,
  );
}

/** A GitHub sign-in of `email` through the service and the provider: the URL the browser lands on. */
async function landedUrl(owned: SocialApplication, email: string, query = '?state=page-state'): Promise<URL> {
  githubSignsIn(providers, email);
  const trip = await socialTrip(app, providers, {
    applicationId: owned.applicationId,
    provider: 'github',
    query,
    ip: freshIp(),
  });
  expect(trip.callback?.status, trip.callback?.text ?? trip.start.text).toBe(303);
  return trip.landed as URL;
}

/** A tab of the application's page whose client calls the local service. */
function pageTab(owned: SocialApplication, url?: string) {
  const origin = new FakeOrigin();
  const tab = origin.openTab(new FakeService(app.url), {
    publicKey: owned.publicKey,
    historyState: { route: 'after-sign-in' },
    ...(url ? { url } : {}),
  });
  return { origin, tab };
}

describe('socialSignInUrl', () => {
  it("is the service's start route, whose query carries returnTo and state back unchanged", async () => {
    // Prepare
    const owned = await socialApplication(app, providers);
    const { tab } = pageTab(owned);
    const state = 'a b&c=d/é+%?#';

    // Act
    const url = new URL(
      tab.client.socialSignInUrl({
        applicationId: owned.applicationId,
        provider: 'github',
        returnTo: SOCIAL_RETURN_URL,
        state,
      }),
    );
    githubSignsIn(providers, newEmail());
    const trip = await socialTrip(app, providers, {
      applicationId: owned.applicationId,
      provider: 'github',
      query: url.search,
      ip: freshIp(),
    });

    // Assess
    expect(`${url.origin}${url.pathname}`).toBe(
      `https://auth.example.test/auth/social/${owned.applicationId}/github`,
    );
    expect(url.search).not.toContain('+');
    expect(trip.callback?.status, trip.callback?.text ?? trip.start.text).toBe(303);
    expect(`${trip.landed?.origin}${trip.landed?.pathname}`).toBe(SOCIAL_RETURN_URL);
    expect(trip.landed?.searchParams.get('state')).toBe(state);
  });

  it('leaves out the parameters it is not given', () => {
    // Prepare
    const tab = new FakeOrigin().openTab();

    // Act
    const url = tab.client.socialSignInUrl({ applicationId: 'app_1', provider: 'oidc' });

    // Assess
    expect(url).toBe('https://auth.example.test/auth/social/app_1/oidc');
  });
});

describe('completeSocialSignIn', () => {
  it("exchanges the return URL's code for the user's session and stores its token, once", async () => {
    // Prepare
    const owned = await socialApplication(app, providers);
    const email = newEmail();
    const landed = await landedUrl(owned, email);
    const { origin, tab } = pageTab(owned);
    const heard: (string | null)[] = [];
    tab.client.onChange((token) => heard.push(token));

    // Act
    const result = await tab.client.completeSocialSignIn({ url: landed.href, expectedState: 'page-state' });
    const session = await tab.client.getSession();
    const again = await rejectionOf(tab.client.completeSocialSignIn({ url: landed.href }));

    // Assess
    expect(result?.user.email).toBe(email);
    expect(origin.storage.get('auth:token')).toBe(result?.token);
    expect(heard).toEqual([result?.token]);
    expect(session?.user.id).toBe(result?.user.id);
    expect(again).toBeInstanceOf(DoorcodeError);
    expect(again).toMatchObject({ status: 400, code: 'FORBIDDEN' });
    expect(tab.client.token()).toBe(result?.token);
    expect(tab.location.href).toBe('https://notes.acme.test/');
  });

  it("reads the page's address and takes code and state off it before a reload could send them again", async () => {
    // Prepare
    const owned = await socialApplication(app, providers);
    const email = newEmail();
    const landed = await landedUrl(owned, email, '?state=page-state');
    landed.searchParams.set('tab', 'notes');
    landed.hash = '#top';
    const { tab } = pageTab(owned, landed.href);

    // Act
    const result = await tab.client.completeSocialSignIn({ expectedState: 'page-state' });
    const reloaded = await tab.client.completeSocialSignIn();

    // Assess
    expect(result?.user.email).toBe(email);
    expect(tab.location.href).toBe(`${SOCIAL_RETURN_URL}?tab=notes#top`);
    expect(tab.history.state).toEqual({ route: 'after-sign-in' });
    expect(reloaded).toBeNull();
    expect(tab.service.count('POST /auth/social/exchange')).toBe(1);
  });

  it('refuses a state other than the expected one with STATE_MISMATCH, sending nothing', async () => {
    // Prepare
    const owned = await socialApplication(app, providers);
    const landed = await landedUrl(owned, newEmail(), '?state=started-elsewhere');
    const { tab } = pageTab(owned, landed.href);

    // Act
    const error = await rejectionOf(tab.client.completeSocialSignIn({ expectedState: 'page-state' }));

    // Assess
    expect(error).toBeInstanceOf(DoorcodeError);
    expect(error).toMatchObject({ status: 400, code: 'STATE_MISMATCH' });
    expect(tab.service.sent).toEqual([]);
    expect(tab.client.token()).toBeNull();
    expect(tab.location.href).toBe(SOCIAL_RETURN_URL);
    // Unspent: the service never saw it.
    const exchanged = await exchangeCode(app, owned.publicKey, landed.searchParams.get('code') as string);
    expect(exchanged.status, exchanged.text).toBe(200);
  });

  it('refuses a return URL without state when a state is expected', async () => {
    // Prepare
    const tab = new FakeOrigin().openTab(new FakeService(), { url: `${SOCIAL_RETURN_URL}?code=c0de` });

    // Act
    const error = await rejectionOf(tab.client.completeSocialSignIn({ expectedState: 'page-state' }));

    // Assess
    expect(error).toMatchObject({ status: 400, code: 'STATE_MISMATCH' });
    expect(tab.service.sent).toEqual([]);
  });

  it('is null, sending nothing and leaving the address alone, when the URL carries no code', async () => {
    // Prepare
    const page = `${SOCIAL_RETURN_URL}?state=page-state&tab=notes`;
    const tab = new FakeOrigin().openTab(new FakeService(), { url: page });

    // Act
    const fromPage = await tab.client.completeSocialSignIn();
    const fromUrl = await tab.client.completeSocialSignIn({ url: `${SOCIAL_RETURN_URL}?code=` });

    // Assess
    expect(fromPage).toBeNull();
    expect(fromUrl).toBeNull();
    expect(tab.service.sent).toEqual([]);
    expect(tab.location.href).toBe(page);
  });
});
