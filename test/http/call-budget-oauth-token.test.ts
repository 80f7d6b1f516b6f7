import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CallCounter } from '../../fixtures/call-counter.ts';
import { startTestApp, TEST_ISSUER, type TestApp } from '../support/app.ts';
import {
  type ClientMetadataServer,
  metadataEnv,
  startClientMetadataServer,
} from '../support/client-metadata-server.ts';
import { countedBy } from '../support/counted.ts';
import { connect, newCode, refreshRequest, tokenRequest } from '../support/oauth-token.ts';
import { createOwnedApplication, manage } from '../support/tenancy.ts';

// docs/data-model.md, "OAuth grants and refresh tokens": the token endpoint makes at most one KMS Sign (the
// access token, signed before the code is spent); the connection routes none. A TransactWriteItems counts as
// one call. A platform session costs the chain one BatchGetItem.
const counter = new CallCounter();
let app: TestApp;
let owned: Awaited<ReturnType<typeof createOwnedApplication>>;
/** Serves the protected resource metadata (RFC 9728) an external resource needs to be registered. */
let metadata: ClientMetadataServer;

beforeAll(async () => {
  metadata = await startClientMetadataServer();
  app = await startTestApp({ env: metadataEnv(metadata), overrides: countedBy(counter) });
  counter.watch(app.deps);
  owned = await createOwnedApplication(app);
});
afterAll(async () => {
  await app.close();
  await metadata.close();
});

const input = () => ({ userId: owned.owner.userId, applicationId: owned.applicationId });

/** The DynamoDB commands and KMS signs of one request. */
async function callsOf(run: () => Promise<{ status: number; text: string }>, status = 200) {
  counter.reset();
  const response = await run();
  expect(response.status, response.text).toBe(status);
  const { commands, kmsSign, sesSend } = counter.snapshot();
  expect(sesSend).toBe(0);
  return { commands, kmsSign };
}

describe('AWS calls per token request', () => {
  it('authorization_code: the code, the application and the membership (3 GetItem), one transaction spending it with the grant and refresh token, 1 Sign', async () => {
    const issued = await newCode(app, input());
    expect(await callsOf(() => tokenRequest(app, issued.fields))).toEqual({
      commands: ['GetItemCommand', 'GetItemCommand', 'GetItemCommand', 'TransactWriteItemsCommand'],
      kmsSign: 1,
    });
  });

  it('authorization_code and refresh_token for an external resource: one more GetItem each (its holder)', async () => {
    const resource = metadata.serveResource('/budget/mcp', TEST_ISSUER);
    const configured = await manage(
      app,
      'PUT',
      `/applications/${owned.applicationId}/configuration`,
      { token: owned.owner.token },
      {
        authentication: { syntheticEmailDomain: null },
        oauth: { resources: [resource] },
        origin: null,
        socialProviders: { google: null, github: null, microsoft: null, oidc: null },
        socialReturnUrls: [],
      },
    );
    expect(configured.status, configured.text).toBe(200);
    const issued = await newCode(app, { ...input(), resource });
    const exchanged = await callsOf(() => tokenRequest(app, issued.fields));
    expect(exchanged).toEqual({
      commands: [
        'GetItemCommand',
        'GetItemCommand',
        'GetItemCommand',
        'GetItemCommand',
        'TransactWriteItemsCommand',
      ],
      kmsSign: 1,
    });
    const { tokens } = await connect(app, { ...input(), resource });
    expect(await callsOf(() => refreshRequest(app, tokens.refresh_token))).toEqual({
      commands: [
        'GetItemCommand',
        'GetItemCommand',
        'GetItemCommand',
        'GetItemCommand',
        'GetItemCommand',
        'TransactWriteItemsCommand',
      ],
      kmsSign: 1,
    });
  });

  it('a replayed code: the code, then 1 UpdateItem revoking its grant, no Sign', async () => {
    const { fields } = await connect(app, input());
    expect(await callsOf(() => tokenRequest(app, fields), 400)).toEqual({
      commands: ['GetItemCommand', 'UpdateItemCommand'],
      kmsSign: 0,
    });
  });

  it('refresh_token: the token, the grant, the application and the membership (4 GetItem), one transaction, 1 Sign', async () => {
    const { tokens } = await connect(app, input());
    expect(await callsOf(() => refreshRequest(app, tokens.refresh_token))).toEqual({
      commands: [
        'GetItemCommand',
        'GetItemCommand',
        'GetItemCommand',
        'GetItemCommand',
        'TransactWriteItemsCommand',
      ],
      kmsSign: 1,
    });
  });

  it('a refresh replayed after the grace window: the token, then 1 UpdateItem revoking the grant, no Sign', async () => {
    const { tokens } = await connect(app, input());
    expect((await refreshRequest(app, tokens.refresh_token)).status).toBe(200);
    app.clock.advance(31_000);
    expect(await callsOf(() => refreshRequest(app, tokens.refresh_token), 400)).toEqual({
      commands: ['GetItemCommand', 'UpdateItemCommand'],
      kmsSign: 0,
    });
  });
});

describe('AWS calls per connection request', () => {
  it('list: the session (1 BatchGetItem), then one Query of the user partition', async () => {
    expect(
      await callsOf(() => manage(app, 'GET', '/auth/list-connections', { token: owned.owner.token })),
    ).toEqual({
      commands: ['BatchGetItemCommand', 'QueryCommand'],
      kmsSign: 0,
    });
  });

  it('revoke: the session, then 1 conditional UpdateItem', async () => {
    const { tokens } = await connect(app, input());
    const id = JSON.parse(Buffer.from(tokens.access_token.split('.')[1] ?? '', 'base64url').toString()).gid;
    expect(
      await callsOf(() =>
        manage(app, 'POST', '/auth/revoke-connection', { token: owned.owner.token }, { id }),
      ),
    ).toEqual({ commands: ['BatchGetItemCommand', 'UpdateItemCommand'], kmsSign: 0 });
  });
});
