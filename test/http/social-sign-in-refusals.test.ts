import { createServer } from 'node:net';
import { ScanCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SOCIAL_CODE_TTL_MS, SOCIAL_STATE_TTL_MS } from '../../shared/social/flow.ts';
import type { TestApp } from '../support/app.ts';
import { expectError } from '../support/expect-error.ts';
import { freshIp, type TestResponse } from '../support/http-client.ts';
import { newEmail } from '../support/sign-in.ts';
import {
  exchangeCode,
  GITHUB_SECRET,
  githubSignsIn,
  OIDC_SECRET,
  oidcSignsIn,
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

// Every refusal of social sign-in (docs/social-sign-in.md, "What the user sees when it fails"): its status,
// the words of its page (start and callback are browser navigations) or its envelope code (the exchange), and
// what it left in the table. Every answer is kept, so the last test can look for the owner's secrets.
let app: TestApp;
let providers: SocialProviders;
const answers: TestResponse[] = [];
beforeAll(async () => {
  ({ app, providers } = await startSocialTestApp({ onAnswer: (answer) => answers.push(answer) }));
});
afterAll(() => app?.close());

/** The application's items of `type` (socialState, socialCode, account), read straight from the table. */
async function itemsOf(owned: SocialApplication, type: 'socialState' | 'socialCode' | 'account') {
  const items: Record<string, unknown>[] = [];
  let cursor: Record<string, unknown> | undefined;
  do {
    const page = await app.deps.db.client.send(
      new ScanCommand({
        TableName: app.deps.db.table,
        ConsistentRead: true,
        ExclusiveStartKey: cursor,
      }),
    );
    items.push(...(page.Items ?? []));
    cursor = page.LastEvaluatedKey;
  } while (cursor);
  return items.filter((item) =>
    type === 'account'
      ? String(item.pk).startsWith(`ACCOUNT#${owned.applicationId}#`) && item.sk === 'ACCOUNT'
      : item.type === type && item.applicationId === owned.applicationId,
  );
}

/** An HTML error page of `status` whose words include `words`. */
function expectPage(response: TestResponse | undefined, status: number, words: string | RegExp): void {
  expect(response?.status, response?.text).toBe(status);
  expect(response?.headers['content-type']).toMatch(/^text\/html\b/);
  expect(response?.text).toMatch(words);
}

const started = (owned: SocialApplication, provider = 'github', query = '') =>
  startAtProvider(app, providers, { applicationId: owned.applicationId, provider, query, ip: freshIp() });

const callback = (path: string, cookie = browserCookie(app)) =>
  app.request('GET', path, { ip: freshIp(), headers: { cookie } });

/** The callback path with its query parameter `name` set to `value` (left out when undefined). */
function withParam(path: string, name: string, value: string | undefined): string {
  const url = new URL(path, 'https://x.test');
  if (value === undefined) url.searchParams.delete(name);
  else url.searchParams.set(name, value);
  return `${url.pathname}${url.search}`;
}

/** A whole GitHub sign-in of a new address: the code on the return URL. */
async function githubCode(owned: SocialApplication, email = newEmail()): Promise<string> {
  githubSignsIn(providers, email);
  const trip = await socialTrip(app, providers, {
    applicationId: owned.applicationId,
    provider: 'github',
    ip: freshIp(),
  });
  expect(trip.callback?.status, trip.callback?.text ?? trip.start.text).toBe(303);
  return trip.landed?.searchParams.get('code') as string;
}

/** A port on loopback nothing listens on. */
async function closedPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

const configure = (owned: SocialApplication, body: unknown) =>
  manage(
    app,
    'PATCH',
    `/applications/${owned.applicationId}/configuration`,
    { token: owned.owner.token },
    body,
  );

describe('GET /auth/social/{applicationId}/{provider}/callback: state', () => {
  it('refuses the callback in another browser (login CSRF): 403 page, the state spent, nothing stored', async () => {
    // Prepare
    const owned = await socialApplication(app, providers);
    githubSignsIn(providers, newEmail());
    const { callbackPath } = await started(owned);
    const otherBrowser = browserCookie(app).replace(/=.*/, `=${'C'.repeat(43)}`);

    // Act
    const elsewhere = await callback(callbackPath as string, otherBrowser);
    const noCookie = await callback(callbackPath as string, '');
    const owner = await callback(callbackPath as string);

    // Assess
    expectPage(elsewhere, 403, /started in another browser/);
    expectPage(noCookie, 400, /unknown, was already used or has expired/);
    expectPage(owner, 400, /unknown, was already used or has expired/);
    expect(await itemsOf(owned, 'socialCode')).toHaveLength(0);
    expect(await itemsOf(owned, 'account')).toHaveLength(0);
  });

  it('refuses a replayed callback with a 400 page, and the replay stores nothing', async () => {
    // Prepare
    const owned = await socialApplication(app, providers);
    githubSignsIn(providers, newEmail());
    const { callbackPath } = await started(owned);

    // Act
    const first = await callback(callbackPath as string);
    const replayed = await callback(callbackPath as string);

    // Assess
    expect(first.status, first.text).toBe(303);
    expectPage(replayed, 400, /unknown, was already used or has expired/);
    expect(await itemsOf(owned, 'socialCode')).toHaveLength(1);
  });

  it('refuses a forged or missing state with a 400 page, and leaves the real one pending', async () => {
    // Prepare
    const owned = await socialApplication(app, providers);
    githubSignsIn(providers, newEmail());
    const { callbackPath } = await started(owned);

    // Act
    const forged = await callback(withParam(callbackPath as string, 'state', 'A'.repeat(43)));
    const missing = await callback(withParam(callbackPath as string, 'state', undefined));

    // Assess
    expectPage(forged, 400, /unknown, was already used or has expired/);
    expectPage(missing, 400, /unknown, was already used or has expired/);
    expect(await itemsOf(owned, 'socialState')).toHaveLength(1);
    expect(await itemsOf(owned, 'socialCode')).toHaveLength(0);
  });

  it('refuses a state after its 10 minutes with a 400 page', async () => {
    // Prepare
    const owned = await socialApplication(app, providers);
    githubSignsIn(providers, newEmail());
    const { callbackPath } = await started(owned);
    app.clock.advance(SOCIAL_STATE_TTL_MS + 1000);

    // Act
    const late = await callback(callbackPath as string);

    // Assess
    expectPage(late, 400, /it lasts 10 minutes/);
    expect(await itemsOf(owned, 'socialCode')).toHaveLength(0);
    expect(await itemsOf(owned, 'account')).toHaveLength(0);
  });

  it('refuses a state started for another application (403 page), and signs in to neither', async () => {
    // Prepare
    const a = await socialApplication(app, providers);
    const b = await socialApplication(app, providers);
    githubSignsIn(providers, newEmail());
    const { callbackPath } = await started(a);

    // Act
    const crossed = await callback(callbackPath?.replace(a.applicationId, b.applicationId) as string);

    // Assess
    expectPage(crossed, 403, /started for another application or provider/);
    for (const owned of [a, b]) {
      expect(await itemsOf(owned, 'socialCode')).toHaveLength(0);
      expect(await itemsOf(owned, 'account')).toHaveLength(0);
    }
  });

  it('refuses a state started for another provider (403 page)', async () => {
    // Prepare
    const owned = await socialApplication(app, providers);
    githubSignsIn(providers, newEmail());
    const { callbackPath } = await started(owned, 'github');

    // Act
    const crossed = await callback(callbackPath?.replace('/github/callback', '/oidc/callback') as string);

    // Assess
    expectPage(crossed, 403, /started for another application or provider/);
    expect(await itemsOf(owned, 'socialCode')).toHaveLength(0);
  });

  it('answers a 404 page for a callback whose application was deleted after the start', async () => {
    // Prepare
    const owned = await socialApplication(app, providers);
    githubSignsIn(providers, newEmail());
    const { callbackPath } = await started(owned);
    const deleted = await manage(app, 'DELETE', `/applications/${owned.applicationId}`, {
      token: owned.owner.token,
    });

    // Act
    const late = await callback(callbackPath as string);

    // Assess
    expect(deleted.status, deleted.text).toBeLessThan(300);
    expectPage(late, 404, /This application does not exist/);
    expect(await itemsOf(owned, 'account')).toHaveLength(0);
    expect(await itemsOf(owned, 'socialCode')).toHaveLength(0);
  });

  it('answers a 404 page for the start of an unknown application', async () => {
    // Act
    const start = await app.request('GET', withChallenge('/auth/social/app_unknown/github'), {
      ip: freshIp(),
    });

    // Assess
    expectPage(start, 404, /This application does not exist/);
  });
});

describe('GET /auth/social/{applicationId}/{provider}/callback: the provider', () => {
  for (const provider of ['github', 'oidc'] as const) {
    it(`${provider}: a PKCE verifier that does not match the challenge is refused by the provider (403 page for a refusal, 502 for an unreadable answer)`, async () => {
      // Prepare
      const owned = await socialApplication(app, providers);
      if (provider === 'github') githubSignsIn(providers, newEmail());
      else oidcSignsIn(providers, newEmail());
      const { callbackPath } = await started(owned, provider);
      const [state] = await itemsOf(owned, 'socialState');
      await app.deps.db.client.send(
        new UpdateCommand({
          TableName: app.deps.db.table,
          Key: { pk: state?.pk, sk: state?.sk },
          UpdateExpression: 'SET codeVerifier = :other',
          ExpressionAttributeValues: { ':other': 'x'.repeat(43) },
        }),
      );

      // Act
      const answer = await callback(callbackPath as string);

      // Assess
      // GitHub names its refusal (403 PROVIDER_DENIED: a refusal is never a 5xx); oauth2-mock-server
      // answers a problem+json document instead of RFC 6749 §5.2's error, which the service cannot read as one.
      expectPage(
        answer,
        provider === 'github' ? 403 : 502,
        provider === 'github'
          ? /GitHub refused the sign-in \(bad_verification_code\); start again/
          : /OpenID Connect answered something this service cannot use; start again/,
      );
      expect(await itemsOf(owned, 'socialCode')).toHaveLength(0);
      expect(await itemsOf(owned, 'account')).toHaveLength(0);
    });
  }

  const unverified: Array<[string, () => void]> = [
    ['GitHub: a primary address not verified', () => githubSignsIn(providers, newEmail(), false)],
    [
      'GitHub: no address at all',
      () => {
        providers.github.nextUser = { login: 'octo', name: null, emails: [] };
      },
    ],
    ['OpenID Connect: email_verified false', () => oidcSignsIn(providers, newEmail(), false)],
    ['OpenID Connect: no email claim', () => oidcSignsIn(providers, undefined)],
  ];
  for (const [what, prepare] of unverified) {
    it(`${what}: a 403 page, and no account`, async () => {
      // Prepare
      const owned = await socialApplication(app, providers);
      prepare();
      const provider = what.startsWith('GitHub') ? 'github' : 'oidc';

      // Act
      const trip = await socialTrip(app, providers, {
        applicationId: owned.applicationId,
        provider,
        ip: freshIp(),
      });

      // Assess
      expectPage(
        trip.callback,
        403,
        /did not vouch for your email address|an address this service cannot use/,
      );
      expect(await itemsOf(owned, 'account')).toHaveLength(0);
      expect(await itemsOf(owned, 'socialCode')).toHaveLength(0);
    });
  }

  it('shows the provider error as a 403 page (access_denied)', async () => {
    // Prepare
    const owned = await socialApplication(app, providers);
    providers.github.nextError = 'access_denied';

    // Act
    const trip = await socialTrip(app, providers, {
      applicationId: owned.applicationId,
      provider: 'github',
      ip: freshIp(),
    }).finally(() => {
      providers.github.nextError = null;
    });

    // Assess
    expectPage(trip.callback, 403, /did not sign you in \(access_denied: The user has denied/);
    expect(await itemsOf(owned, 'socialCode')).toHaveLength(0);
  });

  it('answers a 502 page, not a 500, when the provider cannot be reached; a callback after the issuer moved is refused 403', async () => {
    // Prepare
    const unreachable = `https://localhost:${await closedPort()}`;
    const atStart = await socialApplication(app, providers);
    const atCallback = await socialApplication(app, providers);
    oidcSignsIn(providers, newEmail());
    const { callbackPath } = await started(atCallback, 'oidc');
    for (const owned of [atStart, atCallback]) {
      const moved = await configure(owned, {
        // A new issuer needs the secret again (a stored secret never follows an issuer change).
        socialProviders: {
          oidc: { enabled: true, clientId: 'notes-client', issuer: unreachable, clientSecret: OIDC_SECRET },
        },
      });
      expect(moved.status, moved.text).toBe(200);
    }

    // Act
    const start = await app.request('GET', withChallenge(`/auth/social/${atStart.applicationId}/oidc`), {
      ip: freshIp(),
    });
    const late = await callback(callbackPath as string);

    // Assess
    expectPage(start, 502, /could not be reached; try again/);
    // The issuer moved after the start: its code is sent to no other issuer (mix-up), 403.
    expectPage(late, 403, /OpenID Connect sign-in changed since this sign-in started; start again/);
    expect(await itemsOf(atCallback, 'account')).toHaveLength(0);
  });
});

describe('GET /auth/social/{applicationId}/{provider}: what the owner configured', () => {
  it('a disabled provider: the start is a 404 page, and so is a callback started before it was disabled', async () => {
    // Prepare
    const owned = await socialApplication(app, providers);
    githubSignsIn(providers, newEmail());
    const { callbackPath } = await started(owned);
    const disabled = await configure(owned, { socialProviders: { github: { enabled: false } } });

    // Act
    const start = await app.request('GET', withChallenge(`/auth/social/${owned.applicationId}/github`), {
      ip: freshIp(),
    });
    const late = await callback(callbackPath as string);

    // Assess
    expect(disabled.status, disabled.text).toBe(200);
    expectPage(start, 404, /does not offer sign-in with GitHub/);
    expectPage(late, 404, /does not offer sign-in with GitHub/);
    expect(await itemsOf(owned, 'account')).toHaveLength(0);
    expect(await itemsOf(owned, 'socialCode')).toHaveLength(0);
  });

  it('a return URL that is not registered: a 400 page, and no state stored', async () => {
    // Prepare
    const owned = await socialApplication(app, providers);

    // Act
    const start = await app.request(
      'GET',
      withChallenge(
        `/auth/social/${owned.applicationId}/github?return_to=${encodeURIComponent('https://evil.test/steal')}`,
      ),
      { ip: freshIp() },
    );

    // Assess
    expectPage(start, 400, /This return URL is not one .* registered/);
    expect(start.text).not.toContain('evil.test');
    expect(await itemsOf(owned, 'socialState')).toHaveLength(0);
  });

  it('a disabled user: a 403 page, and no exchange code stored', async () => {
    // Prepare
    const owned = await socialApplication(app, providers);
    const email = newEmail();
    const first = await exchangeCode(app, owned.publicKey, await githubCode(owned, email));
    const userId = first.body.user.id as string;
    const disabled = await manage(
      app,
      'POST',
      `/applications/${owned.applicationId}/users/${userId}/disable`,
      { apiKey: owned.secretKey },
    );
    githubSignsIn(providers, email);

    // Act
    const trip = await socialTrip(app, providers, {
      applicationId: owned.applicationId,
      provider: 'github',
      ip: freshIp(),
    });

    // Assess
    expect(disabled.status, disabled.text).toBe(200);
    expectPage(trip.callback, 403, /disabled/i);
    expect(await itemsOf(owned, 'socialCode')).toHaveLength(0);
  });
});

describe('POST /auth/social/exchange: refusals', () => {
  it('refuses a code used twice (400 FORBIDDEN)', async () => {
    // Prepare
    const owned = await socialApplication(app, providers);
    const code = await githubCode(owned);

    // Act
    const first = await exchangeCode(app, owned.publicKey, code);
    const second = await exchangeCode(app, owned.publicKey, code);

    // Assess
    expect(first.status, first.text).toBe(200);
    expectError(second, 400, 'FORBIDDEN');
  });

  it("refuses another application's key (400 FORBIDDEN), and the code still works for its own", async () => {
    // Prepare
    const owned = await socialApplication(app, providers);
    const other = await socialApplication(app, providers);
    const code = await githubCode(owned);

    // Act
    const foreign = await exchangeCode(app, other.publicKey, code);
    const own = await exchangeCode(app, owned.publicKey, code);

    // Assess
    expectError(foreign, 400, 'FORBIDDEN');
    expect(own.status, own.text).toBe(200);
  });

  it('refuses a code after its 2 minutes (400 FORBIDDEN)', async () => {
    // Prepare
    const owned = await socialApplication(app, providers);
    const code = await githubCode(owned);
    app.clock.advance(SOCIAL_CODE_TTL_MS + 1000);

    // Act
    const late = await exchangeCode(app, owned.publicKey, code);

    // Assess
    expectError(late, 400, 'FORBIDDEN');
  });
});

describe('POST /auth/social/exchange: a user disabled after the callback', () => {
  it('refuses the code with 403 ACCOUNT_DISABLED, and gives no session', async () => {
    // Prepare
    const owned = await socialApplication(app, providers);
    const email = newEmail();
    const first = await exchangeCode(app, owned.publicKey, await githubCode(owned, email));
    const code = await githubCode(owned, email);
    const disabled = await manage(
      app,
      'POST',
      `/applications/${owned.applicationId}/users/${first.body.user.id}/disable`,
      { apiKey: owned.secretKey },
    );

    // Act
    const exchanged = await exchangeCode(app, owned.publicKey, code);

    // Assess
    expect(disabled.status, disabled.text).toBe(200);
    expectError(exchanged, 403, 'ACCOUNT_DISABLED');
  });
});

describe("the owner's client secrets", () => {
  it('a configuration read shows only that they are set', async () => {
    // Prepare
    const owned = await socialApplication(app, providers);

    // Act
    const read = await manage(app, 'GET', `/applications/${owned.applicationId}/configuration`, {
      token: owned.owner.token,
    });

    // Assess
    expect(read.status, read.text).toBe(200);
    expect(read.body.socialProviders.github.clientSecret).toEqual({ set: true });
    expect(read.body.socialProviders.oidc.clientSecret).toEqual({ set: true });
  });

  it('appear in no answer and no log line of this whole file', () => {
    // Assess
    expect(answers.length).toBeGreaterThan(50);
    for (const secret of [GITHUB_SECRET, OIDC_SECRET]) {
      for (const answer of answers) {
        expect(`${JSON.stringify(answer.headers)} ${answer.text}`).not.toContain(secret);
      }
      expect(app.logs.filter((line) => line.includes(secret))).toEqual([]);
    }
  });
});
