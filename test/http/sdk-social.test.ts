import { createHash, webcrypto } from 'node:crypto';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { DoorcodeError } from '../../sdk/src/index.ts';
import { startTestApp, type TestApp } from '../support/app.ts';
import { expectError } from '../support/expect-error.ts';
import { FakeOrigin, FakeService, type FakeTab } from '../support/fake-browser.ts';
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
 * The SDK's social sign-in against the local service: the SDK makes the start URL in a fake tab
 * (its PKCE pair kept in the tab's sessionStorage), a real trip (that start, the GitHub-style
 * provider, the callback) gives a real one-time code on the return URL, and the SDK, in the same
 * tab after the navigation, exchanges it with the tab's verifier for a session.
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

/** The tab's pending social sign-in, as the SDK stored it. */
const pendingOf = (tab: FakeTab): { verifier: string; state: string } | undefined => {
  const text = tab.sessionStorage.get('auth:social');
  return text === undefined ? undefined : JSON.parse(text);
};

const s256 = (verifier: string) => createHash('sha256').update(verifier).digest('base64url');

/** A tab of the application's page whose client calls the local service. */
function pageTab(owned: SocialApplication, url?: string, origin = new FakeOrigin(), from?: FakeTab) {
  const tab = origin.openTab(new FakeService(app.url), {
    publicKey: owned.publicKey,
    historyState: { route: 'after-sign-in' },
    ...(url ? { url } : {}),
    ...(from ? { sessionStorage: from.sessionStorage } : {}),
  });
  return { origin, tab };
}

/** A GitHub sign-in of `email` through the service and the provider from `start`: where the browser lands. */
async function landedFrom(start: string, email: string): Promise<URL> {
  const url = new URL(start);
  const [, , , applicationId, provider] = url.pathname.split('/');
  githubSignsIn(providers, email);
  const trip = await socialTrip(app, providers, {
    applicationId: applicationId as string,
    provider: provider as string,
    query: url.search,
    ip: freshIp(),
  });
  expect(trip.callback?.status, trip.callback?.text ?? trip.start.text).toBe(303);
  return trip.landed as URL;
}

/**
 * A sign-in of `email` the page's tab starts through the SDK: the tab, and the URL it lands on
 * (the tab keeps its sessionStorage across the navigation; open it there with `pageTab`).
 */
async function startedSignIn(owned: SocialApplication, email: string, state?: string) {
  const { origin, tab } = pageTab(owned);
  const start = await tab.client.startSocialSignIn({
    applicationId: owned.applicationId,
    provider: 'github',
    ...(state ? { state } : {}),
  });
  return { origin, tab, landed: await landedFrom(start, email) };
}

/** A sign-in of `email` started outside the SDK, with bench's fixed PKCE pair (APP_VERIFIER). */
async function foreignLanding(owned: SocialApplication, email: string, state: string): Promise<URL> {
  githubSignsIn(providers, email);
  const trip = await socialTrip(app, providers, {
    applicationId: owned.applicationId,
    provider: 'github',
    query: `?state=${state}`,
    ip: freshIp(),
  });
  expect(trip.callback?.status, trip.callback?.text ?? trip.start.text).toBe(303);
  return trip.landed as URL;
}

describe('startSocialSignIn', () => {
  it("is the service's start route with the tab's S256 challenge, carrying returnTo and state back unchanged", async () => {
    // Prepare
    const owned = await socialApplication(app, providers);
    const { tab } = pageTab(owned);
    const state = 'a b&c=d/é+%?#';

    // Act
    const start = await tab.client.startSocialSignIn({
      applicationId: owned.applicationId,
      provider: 'github',
      returnTo: SOCIAL_RETURN_URL,
      state,
    });
    const landed = await landedFrom(start, newEmail());

    // Assess
    const url = new URL(start);
    const pending = pendingOf(tab);
    expect(`${url.origin}${url.pathname}`).toBe(
      `https://auth.example.test/auth/social/${owned.applicationId}/github`,
    );
    expect(url.search).not.toContain('+');
    expect(pending?.state).toBe(state);
    expect(pending?.verifier).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(url.searchParams.get('code_challenge')).toBe(s256(pending?.verifier as string));
    expect(url.searchParams.get('code_challenge_method')).toBe('S256');
    expect(`${landed.origin}${landed.pathname}`).toBe(SOCIAL_RETURN_URL);
    expect(landed.searchParams.get('state')).toBe(state);
    expect(tab.service.sent).toEqual([]);
  });

  it("makes a random state and a new verifier each time, the tab's last start replacing the earlier one", async () => {
    // Prepare
    const tab = new FakeOrigin().openTab();
    const input = { applicationId: 'app_1', provider: 'oidc' } as const;

    // Act
    const first = new URL(await tab.client.startSocialSignIn(input));
    const second = new URL(await tab.client.startSocialSignIn(input));

    // Assess
    const pending = pendingOf(tab);
    expect([...second.searchParams.keys()]).toEqual(['state', 'code_challenge', 'code_challenge_method']);
    expect(second.searchParams.get('state')).toMatch(/^[A-Za-z0-9_-]{22}$/);
    expect(second.searchParams.get('state')).not.toBe(first.searchParams.get('state'));
    expect(second.searchParams.get('code_challenge')).not.toBe(first.searchParams.get('code_challenge'));
    expect(pending?.state).toBe(second.searchParams.get('state'));
    expect(second.searchParams.get('code_challenge')).toBe(s256(pending?.verifier as string));
  });

  it('rejects with INSECURE_CONTEXT, storing nothing, in a page without crypto.subtle', async () => {
    // Prepare
    vi.stubGlobal('crypto', { getRandomValues: webcrypto.getRandomValues.bind(webcrypto) });
    const tab = new FakeOrigin().openTab();

    // Act
    const error = await rejectionOf(
      tab.client.startSocialSignIn({ applicationId: 'app_1', provider: 'oidc' }),
    );

    // Assess
    expect(error).toBeInstanceOf(DoorcodeError);
    expect(error).toMatchObject({ status: 0, code: 'INSECURE_CONTEXT' });
    expect(tab.sessionStorage.size).toBe(0);
  });
});

describe('completeSocialSignIn', () => {
  it("exchanges the return URL's code with the tab's verifier for the user's session and stores its token, once", async () => {
    // Prepare
    const owned = await socialApplication(app, providers);
    const email = newEmail();
    const { origin, tab, landed } = await startedSignIn(owned, email, 'page-state');
    const verifier = pendingOf(tab)?.verifier as string;
    const heard: (string | null)[] = [];
    tab.client.onChange((token) => heard.push(token));

    // Act
    const result = await tab.client.completeSocialSignIn({ url: landed.href });
    const session = await tab.client.getSession();
    const again = await rejectionOf(tab.client.completeSocialSignIn({ url: landed.href }));
    const replayed = await exchangeCode(
      app,
      owned.publicKey,
      landed.searchParams.get('code') as string,
      verifier,
    );

    // Assess
    expect(result?.user.email).toBe(email);
    expect(tab.service.sent.find((r) => r.path === '/auth/social/exchange')?.body).toEqual({
      code: landed.searchParams.get('code'),
      code_verifier: verifier,
    });
    expect(origin.storage.get('auth:token')).toBe(result?.token);
    expect(heard).toEqual([result?.token]);
    expect(session?.user.id).toBe(result?.user.id);
    // Single use: the pair went with the first exchange; the code is spent at the service too.
    expect(pendingOf(tab)).toBeUndefined();
    expect(again).toBeInstanceOf(DoorcodeError);
    expect(again).toMatchObject({ status: 400, code: 'STATE_MISMATCH' });
    expect(tab.service.count('POST /auth/social/exchange')).toBe(1);
    expectError(replayed, 400, 'FORBIDDEN');
    expect(tab.client.token()).toBe(result?.token);
    expect(tab.location.href).toBe('https://notes.acme.test/');
  });

  it("reads the page's address and takes code and state off it before a reload could send them again", async () => {
    // Prepare
    const owned = await socialApplication(app, providers);
    const email = newEmail();
    const started = await startedSignIn(owned, email);
    const landed = started.landed;
    landed.searchParams.set('tab', 'notes');
    landed.hash = '#top';
    const { tab } = pageTab(owned, landed.href, started.origin, started.tab);

    // Act
    const result = await tab.client.completeSocialSignIn();
    const reloaded = await tab.client.completeSocialSignIn();

    // Assess
    expect(result?.user.email).toBe(email);
    expect(tab.location.href).toBe(`${SOCIAL_RETURN_URL}?tab=notes#top`);
    expect(tab.history.state).toEqual({ route: 'after-sign-in' });
    expect(reloaded).toBeNull();
    expect(tab.service.count('POST /auth/social/exchange')).toBe(1);
    expect(pendingOf(tab)).toBeUndefined();
  });

  it('refuses a state other than the one the tab started with: STATE_MISMATCH, sending nothing', async () => {
    // Prepare
    const owned = await socialApplication(app, providers);
    const { origin, tab: starter } = pageTab(owned);
    await starter.client.startSocialSignIn({
      applicationId: owned.applicationId,
      provider: 'github',
      state: 'page-state',
    });
    const landed = await foreignLanding(owned, newEmail(), 'started-elsewhere');
    const { tab } = pageTab(owned, landed.href, origin, starter);

    // Act
    const error = await rejectionOf(tab.client.completeSocialSignIn());

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

  it('refuses a code when this tab started no social sign-in (a link to a code from elsewhere), sending nothing', async () => {
    // Prepare
    const owned = await socialApplication(app, providers);
    const landed = await foreignLanding(owned, newEmail(), 'page-state');
    const { tab } = pageTab(owned, landed.href);

    // Act
    const error = await rejectionOf(tab.client.completeSocialSignIn());

    // Assess
    expect(error).toBeInstanceOf(DoorcodeError);
    expect(error).toMatchObject({ status: 400, code: 'STATE_MISMATCH' });
    expect(error.message).toBe('No social sign-in was started in this tab');
    expect(tab.service.sent).toEqual([]);
    expect(tab.client.token()).toBeNull();
    expect(tab.location.href).toBe(SOCIAL_RETURN_URL);
    const exchanged = await exchangeCode(app, owned.publicKey, landed.searchParams.get('code') as string);
    expect(exchanged.status, exchanged.text).toBe(200);
  });

  it("is refused by the service for another tab's code, whose verifier it does not hold, and the code stays good", async () => {
    // Prepare
    const owned = await socialApplication(app, providers);
    const email = newEmail();
    const started = await startedSignIn(owned, email, 'same-state');
    const startersVerifier = pendingOf(started.tab)?.verifier as string;
    const { tab: other } = pageTab(owned, undefined, started.origin);
    await other.client.startSocialSignIn({
      applicationId: owned.applicationId,
      provider: 'github',
      state: 'same-state',
    });
    const { tab } = pageTab(owned, started.landed.href, started.origin, other);

    // Act
    const error = await rejectionOf(tab.client.completeSocialSignIn());
    const exchanged = await exchangeCode(
      app,
      owned.publicKey,
      started.landed.searchParams.get('code') as string,
      startersVerifier,
    );

    // Assess
    expect(error).toBeInstanceOf(DoorcodeError);
    expect(error).toMatchObject({ status: 400, code: 'FORBIDDEN' });
    expect(tab.service.count('POST /auth/social/exchange')).toBe(1);
    expect(tab.client.token()).toBeNull();
    expect(pendingOf(tab)).toBeUndefined();
    expect(exchanged.status, exchanged.text).toBe(200);
    expect(exchanged.body.user.email).toBe(email);
  });

  it('refuses a return URL without state, sending nothing', async () => {
    // Prepare
    const tab = new FakeOrigin().openTab(new FakeService(), { url: `${SOCIAL_RETURN_URL}?code=c0de` });
    await tab.client.startSocialSignIn({ applicationId: 'app_1', provider: 'github' });

    // Act
    const error = await rejectionOf(tab.client.completeSocialSignIn());

    // Assess
    expect(error).toMatchObject({ status: 400, code: 'STATE_MISMATCH' });
    expect(tab.service.sent).toEqual([]);
  });

  it('is null, sending nothing and leaving the address and the started sign-in alone, when the URL carries no code', async () => {
    // Prepare
    const page = `${SOCIAL_RETURN_URL}?state=page-state&tab=notes`;
    const tab = new FakeOrigin().openTab(new FakeService(), { url: page });
    await tab.client.startSocialSignIn({ applicationId: 'app_1', provider: 'github', state: 'page-state' });
    const pending = pendingOf(tab);

    // Act
    const fromPage = await tab.client.completeSocialSignIn();
    const fromUrl = await tab.client.completeSocialSignIn({ url: `${SOCIAL_RETURN_URL}?code=` });

    // Assess
    expect(fromPage).toBeNull();
    expect(fromUrl).toBeNull();
    expect(tab.service.sent).toEqual([]);
    expect(tab.location.href).toBe(page);
    expect(pendingOf(tab)).toEqual(pending);
  });
});
