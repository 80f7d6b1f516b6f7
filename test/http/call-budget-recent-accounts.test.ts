import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CallCounter } from '../../fixtures/call-counter.ts';
import { startTestApp, TEST_ISSUER, type TestApp } from '../support/app.ts';
import {
  type ClientMetadataServer,
  metadataEnv,
  startClientMetadataServer,
} from '../support/client-metadata-server.ts';
import { countedBy } from '../support/counted.ts';
import { freshIp } from '../support/http-client.ts';
import {
  authorizePath,
  bridgeRequestOf,
  ownPage,
  pkce,
  postForm,
  signInThroughBridge,
} from '../support/oauth-authorize.ts';
import { newEmail } from '../support/sign-in.ts';
import { createOwnedApplication } from '../support/tenancy.ts';

// The recent-accounts routes (docs/api.md "Recent accounts"): a BatchGetItem counts as one
// call. The list reads the IP's limit, the profiles and their applications in ONE BatchGetItem and
// counts the hit in one UpdateItem, whatever the number of accounts; none signs or sends.
const counter = new CallCounter();
let metadata: ClientMetadataServer;
let app: TestApp;
let recent: string;
let path: string;

beforeAll(async () => {
  metadata = await startClientMetadataServer();
  app = await startTestApp({
    env: metadataEnv(metadata),
    overrides: countedBy(counter),
  });
  counter.watch(app.deps);
  const owned = await createOwnedApplication(app);
  path = authorizePath({
    client_id: metadata.serveClient('/agent.json'),
    redirect_uri: 'https://agent.example.com/callback',
    response_type: 'code',
    code_challenge: pkce().challenge,
    resource: `${TEST_ISSUER}/mcp/${owned.applicationId}`,
  });
  let cookie: string | undefined;
  for (let i = 0; i < 5; i++) {
    const requestId = bridgeRequestOf(await app.request('GET', path, { ip: freshIp() }));
    cookie = (await signInThroughBridge(app, requestId, newEmail(), cookie)).recentCookie;
  }
  recent = cookie ?? '';
});
afterAll(async () => {
  await app.close();
  await metadata.close();
});

async function measure(cookie: string | undefined) {
  counter.reset();
  const response = await app.request('GET', '/recent-accounts', {
    headers: cookie ? { cookie } : {},
    ip: freshIp(),
  });
  expect(response.status).toBe(200);
  return counter.snapshot();
}

describe('AWS calls per recent-accounts request', () => {
  it('the list of five accounts, or of none: one BatchGetItem and one UpdateItem, no KMS, no mail', async () => {
    for (const cookie of [recent, undefined]) {
      expect(await measure(cookie)).toEqual({
        dynamodb: 2,
        commands: ['BatchGetItemCommand', 'UpdateItemCommand'],
        kmsSign: 0,
        sesSend: 0,
      });
    }
  });

  it('forgetting one (the list read again) or all (the limit alone): one BatchGetItem and one UpdateItem', async () => {
    const servicePage = { cookie: recent, origin: new URL(TEST_ISSUER).origin };
    for (const path of ['/recent-accounts/usr_unknown', '/recent-accounts']) {
      counter.reset();
      const response = await app.request('DELETE', path, { headers: servicePage, ip: freshIp() });
      expect(response.status).toBe(200);
      expect(counter.snapshot()).toEqual({
        dynamodb: 2,
        commands: ['BatchGetItemCommand', 'UpdateItemCommand'],
        kmsSign: 0,
        sesSend: 0,
      });
    }
  });

  it("the bridge's Forget form: the pending request's GetItem, then one BatchGetItem and one UpdateItem", async () => {
    const requestId = bridgeRequestOf(await app.request('GET', path, { ip: freshIp() }));
    counter.reset();
    const forgotten = await postForm(
      app,
      '/oauth/login/forget',
      { request: requestId, account: 'usr_unknown' },
      ownPage({ cookie: recent }),
    );
    expect(forgotten.status).toBe(303);
    expect(counter.snapshot()).toEqual({
      dynamodb: 3,
      commands: ['GetItemCommand', 'BatchGetItemCommand', 'UpdateItemCommand'],
      kmsSign: 0,
      sesSend: 0,
    });
  });

  it("the bridge's page with recent accounts: its two GetItem, then one BatchGetItem and one UpdateItem", async () => {
    const requestId = bridgeRequestOf(await app.request('GET', path, { ip: freshIp() }));
    counter.reset();
    const page = await app.request('GET', `/oauth/login?request=${requestId}`, {
      headers: { cookie: recent },
      ip: freshIp(),
    });
    expect(page.status).toBe(200);
    expect(counter.snapshot()).toEqual({
      dynamodb: 4,
      commands: ['GetItemCommand', 'GetItemCommand', 'BatchGetItemCommand', 'UpdateItemCommand'],
      kmsSign: 0,
      sesSend: 0,
    });
  });
});
