import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CallCounter } from '../../fixtures/call-counter.ts';
import { recentAccountsCookieName } from '../../shared/sessions/recent-accounts.ts';
import type { TestApp } from '../support/app.ts';
import { countedBy } from '../support/counted.ts';
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

// The application's social sign-in page (docs/api.md "Social sign-in page"): a BatchGetItem
// counts as one call. The page reads the application and the IP's limit in ONE BatchGetItem and
// counts the hit in one UpdateItem; recent accounts of the application add the recent-accounts
// list's BatchGetItem and UpdateItem. None signs, sends or calls a provider.
const counter = new CallCounter();
let providers: SocialProviders;
let app: TestApp;
let applicationId: string;
let recent: string;

beforeAll(async () => {
  ({ app, providers } = await startSocialTestApp({ overrides: countedBy(counter) }));
  counter.watch(app.deps);
  const owned = await createOwnedApplication(app);
  applicationId = owned.applicationId;
  await manage(
    app,
    'PATCH',
    `/applications/${applicationId}/configuration`,
    { token: owned.owner.token },
    {
      socialProviders: {
        oidc: { enabled: true, clientId: 'notes', clientSecret: 'oidc-secret', issuer: providers.issuer },
      },
      socialReturnUrls: ['https://notes.acme.test/after-sign-in'],
    },
  );
  let cookie: string | undefined;
  for (let i = 0; i < 5; i++) {
    providers.claims.email = newEmail();
    providers.claims.email_verified = true;
    const trip = await socialTrip(app, providers, {
      applicationId,
      provider: 'oidc',
      ip: freshIp(),
      ...(cookie ? { cookies: [cookie] } : {}),
    });
    cookie = trip.callback ? cookieFrom(trip.callback, recentAccountsCookieName(app.deps.config)) : cookie;
  }
  recent = cookie ?? '';
});
afterAll(() => app?.close());

describe('AWS calls per social sign-in page request', () => {
  it('the page without recent accounts: one BatchGetItem and one UpdateItem', async () => {
    counter.reset();
    const page = await app.request('GET', withChallenge(`/auth/social/${applicationId}`), { ip: freshIp() });
    expect(page.status, page.text).toBe(200);
    expect(counter.snapshot()).toEqual({
      dynamodb: 2,
      commands: ['BatchGetItemCommand', 'UpdateItemCommand'],
      kmsSign: 0,
      sesSend: 0,
    });
  });

  it("the page with five recent accounts: still the page's two calls (the profiles in its one BatchGetItem, its one limit)", async () => {
    expect(recent).not.toBe('');
    counter.reset();
    const page = await app.request('GET', withChallenge(`/auth/social/${applicationId}`), {
      headers: { cookie: recent },
      ip: freshIp(),
    });
    expect(page.status, page.text).toBe(200);
    expect(page.text.match(/class="account"/g)).toHaveLength(5);
    expect(counter.snapshot()).toEqual({
      dynamodb: 2,
      commands: ['BatchGetItemCommand', 'UpdateItemCommand'],
      kmsSign: 0,
      sesSend: 0,
    });
  });

  it('Forget: one BatchGetItem and one UpdateItem', async () => {
    counter.reset();
    const forgotten = await postForm(
      app,
      `/auth/social/${applicationId}/forget`,
      { account: 'usr_unknown', code_challenge: APP_CHALLENGE },
      ownPage({ cookie: recent }),
    );
    expect(forgotten.status, forgotten.text).toBe(303);
    expect(counter.snapshot()).toEqual({
      dynamodb: 2,
      commands: ['BatchGetItemCommand', 'UpdateItemCommand'],
      kmsSign: 0,
      sesSend: 0,
    });
  });
});
