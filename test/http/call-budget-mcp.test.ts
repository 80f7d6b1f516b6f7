import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CallCounter } from '../../fixtures/call-counter.ts';
import { startTestApp, type TestApp } from '../support/app.ts';
import { countedBy } from '../support/counted.ts';
import { mcpAccessToken, mcpPost, toolCall } from '../support/mcp.ts';
import { bearer, newEmail, signIn } from '../support/sign-in.ts';
import { createOwnedApplication } from '../support/tenancy.ts';

// docs/mcp.md, "Cost of a call": a tool call makes at most 2 DynamoDB calls beyond the tool's own work, and
// no KMS call: the token is verified against the public keys in memory; then ONE consistent
// BatchGetItem of the grant and the application, and ONE consistent GetItem of the caller's
// membership of the application's organization (AUTH below). What follows is the management route's own work
// for the same read or write (test/http/call-budget-users.test.ts pins those after its KEY_CHAIN).
const AUTH = ['BatchGetItemCommand', 'GetItemCommand'];

const counter = new CallCounter();
let app: TestApp;
let owned: Awaited<ReturnType<typeof createOwnedApplication>>;
let token: string;

beforeAll(async () => {
  app = await startTestApp({ overrides: countedBy(counter) });
  counter.watch(app.deps);
  owned = await createOwnedApplication(app);
  token = await mcpAccessToken(app, owned.owner.userId, owned.applicationId, ['auth:read', 'auth:write']);
});
afterAll(() => app.close());

/** The DynamoDB commands of one MCP request, in order; none signs or sends mail. */
async function commandsOf(message: ReturnType<typeof toolCall>) {
  counter.reset();
  const response = await mcpPost(app, owned.applicationId, bearer(token), message);
  expect(response.status, response.text).toBe(200);
  expect(response.body.result?.isError, response.text).toBeFalsy();
  const calls = counter.snapshot();
  expect({ kmsSign: calls.kmsSign, sesSend: calls.sesSend }).toEqual({ kmsSign: 0, sesSend: 0 });
  return calls.commands;
}

const endUser = async () =>
  (await signIn(app, newEmail(), { 'x-api-key': owned.publicKey })).body.user.id as string;

describe('AWS calls per request (MCP endpoint)', () => {
  it('tools/list and auth_get_application: the grant, the application and the membership, nothing else', async () => {
    expect(await commandsOf(toolCall('', {}, 'tools/list'))).toEqual(AUTH);
    expect(await commandsOf(toolCall('auth_get_application'))).toEqual(AUTH);
  });

  it('auth_get_user 1 GetItem; auth_list_users 1 Query; auth_search 2 Queries (address, name)', async () => {
    const userId = await endUser();
    expect(await commandsOf(toolCall('auth_get_user', { userId }))).toEqual([...AUTH, 'GetItemCommand']);
    expect(await commandsOf(toolCall('auth_list_users'))).toEqual([...AUTH, 'QueryCommand']);
    expect(await commandsOf(toolCall('auth_search', { q: 'user' }))).toEqual([
      ...AUTH,
      'QueryCommand',
      'QueryCommand',
    ]);
  });

  it('auth_get_statistics 1 Query and 1 BatchGetItem; auth_list_organizations as the tenant organizations route', async () => {
    expect(await commandsOf(toolCall('auth_get_statistics'))).toEqual([
      ...AUTH,
      'QueryCommand',
      'BatchGetItemCommand',
    ]);
    expect(await commandsOf(toolCall('auth_list_organizations'))).toEqual([...AUTH, 'QueryCommand']);
  });

  it('auth_revoke_user_sessions: the user read, the sessions Query, one TransactWriteItems, then its audit entry', async () => {
    const userId = await endUser();
    expect(await commandsOf(toolCall('auth_revoke_user_sessions', { userId }))).toEqual([
      ...AUTH,
      'GetItemCommand',
      'QueryCommand',
      'TransactWriteItemsCommand',
      'TransactWriteItemsCommand',
    ]);
  });
});
