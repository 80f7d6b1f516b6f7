import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { recentAccountsCookieName } from '../../shared/sessions/recent-accounts.ts';
import { TEST_ISSUER, type TestApp } from '../support/app.ts';
import { freshIp } from '../support/http-client.ts';
import { cookieFrom, ownPage, postForm } from '../support/oauth-authorize.ts';
import { newEmail } from '../support/sign-in.ts';
import {
  APP_CHALLENGE,
  type SocialProviders,
  socialTrip,
  startSocialTestApp,
  withChallenge,
} from '../support/social-providers.ts';
import { createOwnedApplication, manage } from '../support/tenancy.ts';

/**
 * The application's own social sign-in page (docs/api.md, "Social sign-in page"): its providers as links to
 * the start, and the browser's recent accounts of that application with a Forget button. Over HTTP against
 * the local server, with the real OpenID Connect provider of test/support/social-providers.ts.
 */
let app: TestApp;
let providers: SocialProviders;
let recentName: string;
beforeAll(async () => {
  ({ app, providers } = await startSocialTestApp());
  recentName = recentAccountsCookieName(app.deps.config);
});
afterAll(() => app?.close());

const RETURN_URL = 'https://notes.acme.test/after-sign-in';
const OTHER_RETURN_URL = 'https://notes.acme.test/elsewhere';

/** An application offering OpenID Connect, with GitHub configured but disabled. */
async function socialApplication(name = 'Acme Notes') {
  const owned = await createOwnedApplication(app, name);
  const configured = await manage(
    app,
    'PATCH',
    `/applications/${owned.applicationId}/configuration`,
    { token: owned.owner.token },
    {
      socialProviders: {
        github: { enabled: false, clientId: 'gh-client', clientSecret: 'gh-secret' },
        oidc: { enabled: true, clientId: 'notes', clientSecret: 'oidc-secret', issuer: providers.issuer },
      },
      socialReturnUrls: [RETURN_URL, OTHER_RETURN_URL],
    },
  );
  expect(configured.status, configured.text).toBe(200);
  return owned;
}

/** A browser's OpenID Connect sign-in of `email` with `cookie` (its recent-accounts cookie, if any). */
async function signIn(applicationId: string, email: string, name: string, cookie?: string) {
  providers.claims.email = email;
  providers.claims.email_verified = true;
  providers.claims.name = name;
  const trip = await socialTrip(app, providers, {
    applicationId,
    provider: 'oidc',
    ip: freshIp(),
    ...(cookie ? { cookies: [cookie] } : {}),
  });
  expect(trip.callback?.status, trip.callback?.text ?? trip.start.text).toBe(303);
  const recent = trip.callback ? cookieFrom(trip.callback, recentName) : undefined;
  if (!recent) throw new Error('the callback set no recent-accounts cookie');
  return recent;
}

const page = (applicationId: string, query = '', cookie?: string) =>
  app.request('GET', withChallenge(`/auth/social/${applicationId}${query}`), {
    headers: cookie ? { cookie } : {},
    ip: freshIp(),
  });

describe('GET /auth/social/{applicationId}', () => {
  it('offers a link to the start for each enabled provider, with return_to and state, under a strict CSP', async () => {
    // Prepare
    const owned = await socialApplication();
    const query = `?return_to=${encodeURIComponent(OTHER_RETURN_URL)}&state=s%261`;

    // Act
    const answer = await page(owned.applicationId, query);

    // Assert
    expect(answer.status, answer.text).toBe(200);
    expect(answer.headers['content-type']).toContain('text/html');
    expect(answer.headers['content-security-policy']).toContain("default-src 'none'");
    expect(answer.headers['content-security-policy']).not.toContain('script-src');
    expect(answer.text).toContain('Sign in to Acme Notes');
    const links = [...answer.text.matchAll(/<a class="provider" href="([^"]+)">([^<]+)<\/a>/g)];
    expect(links.map((link) => link[2])).toEqual(['Continue with OpenID Connect']);
    const href = (links[0]?.[1] ?? '').replaceAll('&amp;', '&');
    const start = new URL(href, TEST_ISSUER);
    expect(start.pathname).toBe(`/auth/social/${owned.applicationId}/oidc`);
    expect(start.searchParams.get('return_to')).toBe(OTHER_RETURN_URL);
    expect(start.searchParams.get('state')).toBe('s&1');
    expect(answer.text).not.toContain('Recent accounts');
  });

  it('refuses an unknown application (404) and a return URL the application did not register (400)', async () => {
    // Prepare
    const owned = await socialApplication();

    // Act
    const unknown = await page('app_unknown');
    const unregistered = await page(
      owned.applicationId,
      `?return_to=${encodeURIComponent('https://evil.test/')}`,
    );

    // Assert
    expect(unknown.status).toBe(404);
    expect(unregistered.status).toBe(400);
    expect(unregistered.headers['content-type']).toContain('text/html');
    expect(unregistered.text).not.toContain('Continue with');
  });

  it("lists the browser's recent accounts of this application only, masked, each with a Forget form", async () => {
    // Prepare: two sign-ins to this application and one to another, in one browser.
    const owned = await socialApplication();
    const other = await socialApplication('Other App');
    const first = newEmail();
    const second = newEmail();
    let cookie = await signIn(owned.applicationId, first, 'Ada Lovelace');
    cookie = await signIn(other.applicationId, newEmail(), 'Somebody Else', cookie);
    cookie = await signIn(owned.applicationId, second, 'Grace Hopper', cookie);

    // Act
    const answer = await page(owned.applicationId, '?state=abc', cookie);

    // Assert: newest first, masked, no full address, no account of the other application.
    expect(answer.status, answer.text).toBe(200);
    expect(answer.text).toContain('Recent accounts');
    const grace = answer.text.indexOf('Grace Hopper');
    const ada = answer.text.indexOf('Ada Lovelace');
    expect(grace).toBeGreaterThan(0);
    expect(ada).toBeGreaterThan(grace);
    expect(answer.text).toContain(`u***@${second.split('@')[1]}`);
    expect(answer.text).not.toContain(first);
    expect(answer.text).not.toContain(second);
    expect(answer.text).not.toContain('Somebody Else');
    expect(answer.text).toMatch(/Last used \d{4}-\d{2}-\d{2} \d{2}:\d{2} UTC/);
    const forms = [...answer.text.matchAll(/<form method="post" action="([^"]+)">/g)];
    expect(forms.map((form) => form[1])).toEqual([
      `/auth/social/${owned.applicationId}/forget`,
      `/auth/social/${owned.applicationId}/forget`,
    ]);
    expect(answer.text).toContain('<input type="hidden" name="state" value="abc">');
  });
});

describe('POST /auth/social/{applicationId}/forget', () => {
  it('takes the account off the list and sends the browser back to the page with its query', async () => {
    // Prepare
    const owned = await socialApplication();
    const gone = newEmail();
    const kept = newEmail();
    let cookie = await signIn(owned.applicationId, gone, 'Gone Person');
    cookie = await signIn(owned.applicationId, kept, 'Kept Person', cookie);
    const listed = await page(owned.applicationId, '', cookie);
    const row = listed.text.split('<div class="account">').find((part) => part.includes('Gone Person'));
    const userId = /name="account" value="([^"]+)"/.exec(row ?? '')?.[1] ?? '';
    expect(userId).toMatch(/^usr_/);

    // Act
    const forgotten = await postForm(
      app,
      `/auth/social/${owned.applicationId}/forget`,
      { account: userId, return_to: RETURN_URL, state: 'x y', code_challenge: APP_CHALLENGE },
      ownPage({ cookie }),
    );

    // Assert: a 303 to the page, whose list no longer holds the account.
    expect(forgotten.status, forgotten.text).toBe(303);
    const back = new URL(String(forgotten.headers.location));
    expect(`${back.origin}${back.pathname}`).toBe(`${TEST_ISSUER}/auth/social/${owned.applicationId}`);
    expect(back.searchParams.get('return_to')).toBe(RETURN_URL);
    expect(back.searchParams.get('state')).toBe('x y');
    const after = cookieFrom(forgotten, recentName) as string;
    const again = await page(owned.applicationId, back.search, after);
    expect(again.text).toContain('Kept Person');
    expect(again.text).not.toContain('Gone Person');
  });

  it('refuses a Forget posted by another site (403) and leaves the cookie alone', async () => {
    // Prepare
    const owned = await socialApplication();
    const cookie = await signIn(owned.applicationId, newEmail(), 'Still Here');

    // Act
    const refused = await postForm(
      app,
      `/auth/social/${owned.applicationId}/forget`,
      { account: 'usr_any', code_challenge: APP_CHALLENGE },
      { origin: 'https://evil.test', 'content-type': 'application/x-www-form-urlencoded', cookie },
    );

    // Assert
    expect(refused.status).toBe(403);
    expect(refused.headers['content-type']).toContain('text/html');
    expect(cookieFrom(refused, recentName)).toBeUndefined();
    await expect(page(owned.applicationId, '', cookie).then((r) => r.text)).resolves.toContain('Still Here');
  });
});
