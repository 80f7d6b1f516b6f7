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
import { latestCode } from '../support/inbox.ts';
import {
  approvalOf,
  authorizePath,
  bridgeRequestOf,
  ownPage,
  pkce,
  postForm,
} from '../support/oauth-authorize.ts';
import { newEmail } from '../support/sign-in.ts';
import { createOwnedApplication } from '../support/tenancy.ts';

// The OAuth authorization routes (docs/data-model.md "OAuth authorization" keeps the same numbers):
// a BatchGetItem counts as one call. Authorize and consent never sign; the bridge's verify signs once.
const counter = new CallCounter();
let metadata: ClientMetadataServer;
let app: TestApp;
let path: string;
let ownerCookie: string;

beforeAll(async () => {
  metadata = await startClientMetadataServer();
  app = await startTestApp({
    // As deployed: the stack always sets the hourly cap on sign-in emails (one UpdateItem per email).
    env: { ...metadataEnv(metadata), MAX_CODE_EMAILS_PER_HOUR: '1000' },
    overrides: countedBy(counter),
  });
  counter.watch(app.deps);
  const owned = await createOwnedApplication(app);
  ownerCookie = `${app.deps.config.SERVICE_NAME}.session_token=${owned.owner.token}`;
  path = authorizePath({
    client_id: metadata.serveClient('/agent.json'),
    redirect_uri: 'https://agent.example.com/callback',
    response_type: 'code',
    code_challenge: pkce().challenge,
    code_challenge_method: 'S256',
    resource: `${TEST_ISSUER}/mcp/${owned.applicationId}`,
    state: 'st',
  });
  // The client's metadata document is cached per container: the budgets below are of a warm one.
  await app.request('GET', path, { ip: freshIp() });
});
afterAll(async () => {
  await app.close();
  await metadata.close();
});

async function measure(run: () => Promise<{ status: number }>, expectedStatus: number) {
  counter.reset();
  const response = await run();
  expect(response.status).toBe(expectedStatus);
  return counter.snapshot();
}

function expectCalls(
  calls: ReturnType<CallCounter['snapshot']>,
  budget: { commands: string[]; kmsSign: number; sesSend: number },
) {
  expect(calls).toEqual({ dynamodb: budget.commands.length, ...budget });
}

describe('AWS calls per OAuth authorization request', () => {
  it('authorize without a session: the application read and the request written, no KMS', async () => {
    const calls = await measure(() => app.request('GET', path, { ip: freshIp() }), 302);
    expectCalls(calls, { commands: ['GetItemCommand', 'PutItemCommand'], kmsSign: 0, sesSend: 0 });
  });

  it('authorize with a session: the session, the role (application, membership), the request; no KMS', async () => {
    const calls = await measure(
      () => app.request('GET', path, { headers: { cookie: ownerCookie }, ip: freshIp() }),
      200,
    );
    expectCalls(calls, {
      commands: ['BatchGetItemCommand', 'GetItemCommand', 'GetItemCommand', 'PutItemCommand'],
      kmsSign: 0,
      sesSend: 0,
    });
  });

  it('the sign-in page: the request and the application', async () => {
    const requestId = bridgeRequestOf(await app.request('GET', path, { ip: freshIp() }));
    const calls = await measure(
      () => app.request('GET', `/oauth/login?request=${requestId}`, { ip: freshIp() }),
      200,
    );
    expectCalls(calls, { commands: ['GetItemCommand', 'GetItemCommand'], kmsSign: 0, sesSend: 0 });
  });

  it("the bridge's start and verify: the request and application, then what /auth/code/start and /verify make; one KMS Sign", async () => {
    // Prepare
    const requestId = bridgeRequestOf(await app.request('GET', path, { ip: freshIp() }));
    const email = newEmail();

    // Act
    const start = await measure(() => postForm(app, '/oauth/login', { request: requestId, email }), 200);
    const code = await latestCode(email);
    const verify = await measure(
      () => postForm(app, '/oauth/login/verify', { request: requestId, email, code }),
      303,
    );

    // Assess
    expectCalls(start, {
      commands: [
        'GetItemCommand',
        'GetItemCommand',
        'BatchGetItemCommand',
        'TransactWriteItemsCommand',
        'UpdateItemCommand',
      ],
      kmsSign: 0,
      sesSend: 1,
    });
    expectCalls(verify, {
      commands: ['GetItemCommand', 'BatchGetItemCommand', 'UpdateItemCommand', 'TransactWriteItemsCommand'],
      kmsSign: 1,
      sesSend: 0,
    });
  });

  it('consent: the session, the request spent, the role, the code; no KMS', async () => {
    const page = await app.request('GET', path, { headers: { cookie: ownerCookie }, ip: freshIp() });
    const form = approvalOf(page.text);

    const calls = await measure(
      () => postForm(app, '/oauth/consent', form, ownPage({ cookie: ownerCookie })),
      303,
    );

    expectCalls(calls, {
      commands: [
        'BatchGetItemCommand',
        'DeleteItemCommand',
        'GetItemCommand',
        'GetItemCommand',
        'PutItemCommand',
      ],
      kmsSign: 0,
      sesSend: 0,
    });
  });
});
