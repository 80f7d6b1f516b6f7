import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TestApp } from '../support/app.ts';
import { startClientMetadataServer, testCertificates } from '../support/client-metadata-server.ts';
import { freshIp } from '../support/http-client.ts';
import { loseFirstAnswer } from '../support/lost-answer.ts';
import { approvalOf, authorizePath, ownPage, pkce, postForm } from '../support/oauth-authorize.ts';
import { newEmail } from '../support/sign-in.ts';
import { githubSignsIn, socialApplication } from '../support/social-application.ts';
import {
  browserCookie,
  type SocialProviders,
  socialTrip,
  startAtProvider,
  startSocialTestApp,
} from '../support/social-providers.ts';
import { createOwnedApplication } from '../support/tenancy.ts';

// Found by the chaos harness (npm run chaos): the write that takes a single-use item is sent again
// by the SDK when its answer is lost (db.ts: maxAttempts 3). As a DeleteItem, the resend found
// nothing and the route refused a request it had in fact accepted; as items.ts `takeOnce`, the
// resend finds its own write id (docs/reliability.md: every write whose answer may be lost
// recognises its own landing).

let app: TestApp;
let providers: SocialProviders;
let metadata: Awaited<ReturnType<typeof startClientMetadataServer>>;
beforeAll(async () => {
  const certificates = await testCertificates();
  metadata = await startClientMetadataServer(certificates);
  ({ app, providers } = await startSocialTestApp({
    certificates,
    env: { OAUTH_METADATA_ALLOW_LOOPBACK: 'true' },
  }));
});
afterAll(async () => {
  await app?.close();
  await metadata?.close();
});

/** The write that takes the item at `prefix` (an UpdateItem, formerly a DeleteItem). */
const taking =
  (prefix: string) =>
  (command: string, input: Record<string, unknown>): boolean =>
    (command === 'UpdateItemCommand' || command === 'DeleteItemCommand') &&
    String((input.Key as { pk?: { S?: string } } | undefined)?.pk?.S).startsWith(prefix);

describe('a single-use item taken by a write whose answer was lost', () => {
  it('approves the consent: the request it spent was its own (shared/store/oauth-requests.ts)', async () => {
    const owned = await createOwnedApplication(app);
    const cookie = `${app.deps.config.SERVICE_NAME}.session_token=${owned.owner.token}`;
    const path = authorizePath({
      client_id: metadata.serveClient('/lost-delete-agent.json'),
      redirect_uri: 'https://agent.example.com/callback',
      response_type: 'code',
      code_challenge: pkce().challenge,
      code_challenge_method: 'S256',
      resource: `${app.deps.config.ISSUER}/mcp/${owned.applicationId}`,
      state: 'st',
    });
    const page = await app.request('GET', path, { headers: { cookie }, ip: freshIp() });
    expect(page.status, page.text).toBe(200);

    const lost = loseFirstAnswer(app.deps.db, taking('OAUTHREQ#'));
    const decided = await postForm(app, '/oauth/consent', approvalOf(page.text), ownPage({ cookie })).finally(
      lost.restore,
    );

    expect(lost.sends()).toBe(2);
    expect(decided.status, decided.text).toBe(303);
    expect(new URL(String(decided.headers.location)).searchParams.get('code')).toBeTruthy();
  });

  it('lands the social callback: the state it took was its own (shared/store/social.ts)', async () => {
    const owned = await socialApplication(app, providers);
    githubSignsIn(providers, newEmail());

    const lost = loseFirstAnswer(app.deps.db, taking('SOCIAL#'));
    const trip = await socialTrip(app, providers, {
      applicationId: owned.applicationId,
      provider: 'github',
    }).finally(lost.restore);

    expect(lost.sends()).toBe(2);
    expect(trip.callback?.status, trip.callback?.text).toBe(303);
    expect(trip.landed?.searchParams.get('code')).toBeTruthy();
  });

  it('gives a social state to one of five parallel callbacks, and a later one none', async () => {
    const owned = await socialApplication(app, providers);
    githubSignsIn(providers, newEmail());
    const { callbackPath } = await startAtProvider(app, providers, {
      applicationId: owned.applicationId,
      provider: 'github',
    });
    const callback = () =>
      app.request('GET', String(callbackPath), { headers: { cookie: browserCookie(app) }, ip: freshIp() });

    const statuses = (await Promise.all(Array.from({ length: 5 }, callback))).map((answer) => answer.status);
    const later = await callback();

    expect(statuses.filter((status) => status === 303)).toHaveLength(1);
    expect(statuses.filter((status) => status === 400)).toHaveLength(4);
    expect(later.status).toBe(400);
  });
});
