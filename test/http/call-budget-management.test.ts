import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CallCounter } from '../../fixtures/call-counter.ts';
import { startTestApp, type TestApp } from '../support/app.ts';
import { newEmail, signIn } from '../support/sign-in.ts';
import { addSignedInMember, createOwnedApplication, manage } from '../support/tenancy.ts';

// Management call budgets (docs/data-model.md, "Calls per request", keeps the same numbers). A BatchGetItem
// or TransactWriteItems counts as one call. A platform session costs one BatchGetItem (session, account); a
// target organization one more (organization and membership together); a target application two GetItems
// (the application, then the membership in its organization). A key costs its GetItem and its
// application's.
const counter = new CallCounter();
let app: TestApp;
let tenant: Awaited<ReturnType<typeof createOwnedApplication>>;
let extra: { userId: string };

beforeAll(async () => {
  app = await startTestApp();
  counter.watch(app.deps);
  tenant = await createOwnedApplication(app);
  extra = await addSignedInMember(app, tenant.owner.token, tenant.organizationId, 'member');
});
afterAll(() => app.close());

const session = ['BatchGetItemCommand'];
const organization = [...session, 'BatchGetItemCommand'];
const application = [...session, 'GetItemCommand', 'GetItemCommand'];

async function expectCalls(
  run: () => ReturnType<typeof manage>,
  status: number,
  commands: string[],
): Promise<Awaited<ReturnType<typeof manage>>> {
  counter.reset();
  const response = await run();
  expect(response.status, response.text).toBe(status);
  expect(counter.snapshot()).toEqual({ dynamodb: commands.length, commands, kmsSign: 0, sesSend: 0 });
  return response;
}

describe('AWS calls per management request (no KMS, no SES)', () => {
  it('organizations', async () => {
    const owner = { token: tenant.owner.token };
    const created = await expectCalls(
      () => manage(app, 'POST', '/organizations', owner, { name: 'Budget' }),
      201,
      [...session, 'TransactWriteItemsCommand'],
    );
    const id = created.body.id as string;
    await expectCalls(() => manage(app, 'GET', '/organizations', owner), 200, [
      ...session,
      'QueryCommand',
      'BatchGetItemCommand',
    ]);
    await expectCalls(() => manage(app, 'GET', `/organizations/${id}`, owner), 200, organization);
    // The rename and its audit entry, in one TransactWriteItems; the same name again writes nothing.
    await expectCalls(() => manage(app, 'PATCH', `/organizations/${id}`, owner, { name: 'Renamed' }), 200, [
      ...organization,
      'TransactWriteItemsCommand',
    ]);
    await expectCalls(
      () => manage(app, 'PATCH', `/organizations/${id}`, owner, { name: 'Renamed' }),
      200,
      organization,
    );
    // The creator gets its place back in the same transaction (ORGANIZATIONS_PER_ACCOUNT).
    await expectCalls(() => manage(app, 'DELETE', `/organizations/${id}`, owner), 204, [
      ...organization,
      'QueryCommand',
      'TransactWriteItemsCommand',
    ]);
  });

  it('members and invitations', async () => {
    const owner = { token: tenant.owner.token };
    const path = `/organizations/${tenant.organizationId}/members`;
    const someone = await signIn(app);
    await expectCalls(() => manage(app, 'GET', path, owner), 200, [...organization, 'QueryCommand']);
    // The invitation and its audit entry, in one TransactWriteItems.
    await expectCalls(() => manage(app, 'POST', path, owner, { email: someone.email }), 202, [
      ...organization,
      'TransactWriteItemsCommand',
    ]);
    await expectCalls(() => manage(app, 'GET', '/invitations', { token: someone.token }), 200, [
      ...session,
      'QueryCommand',
    ]);
    // The organization's invitations (gsi1), then their inviters' memberships in one BatchGetItem.
    const invitations = `/organizations/${tenant.organizationId}/invitations`;
    await expectCalls(() => manage(app, 'GET', invitations, owner), 200, [
      ...organization,
      'QueryCommand',
      'BatchGetItemCommand',
    ]);
    // The inviter's membership is checked by a ConditionCheck inside the accepting transaction: one
    // more item in the same TransactWriteItems (4 instead of 3), no more calls.
    await expectCalls(
      () => manage(app, 'POST', `/invitations/${tenant.organizationId}/accept`, { token: someone.token }),
      200,
      [...session, 'GetItemCommand', 'TransactWriteItemsCommand'],
    );
    // None pending: no memberships to read.
    await expectCalls(() => manage(app, 'GET', invitations, owner), 200, [...organization, 'QueryCommand']);
    const revoked = newEmail();
    await manage(app, 'POST', path, owner, { email: revoked });
    // The Delete and its audit entry, in one TransactWriteItems.
    await expectCalls(() => manage(app, 'DELETE', `${invitations}/${revoked}`, owner), 204, [
      ...organization,
      'TransactWriteItemsCommand',
    ]);
    // Declining none: the conditioned Delete with its entry is refused, nothing written or recorded.
    await expectCalls(
      () => manage(app, 'DELETE', `/invitations/${tenant.organizationId}`, { token: someone.token }),
      204,
      [...session, 'TransactWriteItemsCommand'],
    );
    await expectCalls(() => manage(app, 'PATCH', `${path}/${extra.userId}`, owner, { role: 'admin' }), 200, [
      ...organization,
      'GetItemCommand',
      'TransactWriteItemsCommand',
    ]);
    await expectCalls(() => manage(app, 'DELETE', `${path}/${someone.body.user.id}`, owner), 204, [
      ...organization,
      'GetItemCommand',
      'TransactWriteItemsCommand',
    ]);
  });

  it('a void invitation: the refused transaction, then its deletion', async () => {
    const owner = { token: tenant.owner.token };
    const inviter = await addSignedInMember(app, tenant.owner.token, tenant.organizationId, 'admin');
    const invitee = await signIn(app);
    const members = `/organizations/${tenant.organizationId}/members`;
    await manage(app, 'POST', members, { token: inviter.token }, { email: invitee.email, role: 'admin' });
    await manage(app, 'DELETE', `${members}/${inviter.userId}`, owner);
    await expectCalls(
      () => manage(app, 'POST', `/invitations/${tenant.organizationId}/accept`, { token: invitee.token }),
      404,
      [...session, 'GetItemCommand', 'TransactWriteItemsCommand', 'DeleteItemCommand'],
    );
  });

  it('applications and keys', async () => {
    const owner = { token: tenant.owner.token };
    const created = await expectCalls(
      () => manage(app, 'POST', `/application/${tenant.organizationId}`, owner, { name: 'Budget App' }),
      201,
      [...organization, 'TransactWriteItemsCommand'],
    );
    const id = created.body.id as string;
    await expectCalls(
      () => manage(app, 'GET', `/organizations/${tenant.organizationId}/applications`, owner),
      200,
      [...organization, 'QueryCommand'],
    );
    await expectCalls(() => manage(app, 'GET', `/applications/${id}`, owner), 200, application);
    // The change and its audit entry, in one TransactWriteItems, conditioned on the settings as read;
    // no change writes nothing: an owner's copy of the application is read strongly consistent, so
    // it decides at once; a key's copy may lag, so it is read again (one GetItem) before deciding.
    await expectCalls(() => manage(app, 'PATCH', `/applications/${id}`, owner, { name: 'Budget Two' }), 200, [
      ...application,
      'TransactWriteItemsCommand',
    ]);
    await expectCalls(
      () => manage(app, 'PATCH', `/applications/${id}`, owner, { name: 'Budget Two' }),
      200,
      application,
    );
    const key = await expectCalls(
      () => manage(app, 'POST', '/api-keys', owner, { applicationId: id, type: 'public' }),
      201,
      [...application, 'TransactWriteItemsCommand'],
    );
    // The entries, then the keys' last use from the key items.
    await expectCalls(() => manage(app, 'GET', `/applications/${id}/api-keys`, owner), 200, [
      ...application,
      'QueryCommand',
      'BatchGetItemCommand',
    ]);
    // by-api-key: the key, its application, and (first use in a minute) the note of its use.
    await expectCalls(() => manage(app, 'GET', '/application/by-api-key', { apiKey: key.body.key }), 200, [
      'GetItemCommand',
      'GetItemCommand',
      'UpdateItemCommand',
    ]);
    await expectCalls(() => manage(app, 'GET', '/application/by-api-key', { apiKey: key.body.key }), 200, [
      'GetItemCommand',
      'GetItemCommand',
    ]);
    await expectCalls(
      () => manage(app, 'DELETE', `/applications/${id}/api-keys/${key.body.id}`, owner),
      200,
      [...application, 'GetItemCommand', 'TransactWriteItemsCommand'],
    );
    // Its running impersonations (none here: the records are read only when some run), then its keys.
    await expectCalls(() => manage(app, 'DELETE', `/applications/${id}`, owner), 204, [
      ...application,
      'QueryCommand',
      'QueryCommand',
      'TransactWriteItemsCommand',
    ]);
  });

  it('a secret key reads its application with two GetItems', async () => {
    await expectCalls(
      () => manage(app, 'GET', `/applications/${tenant.applicationId}`, { apiKey: tenant.secretKey }),
      200,
      ['GetItemCommand', 'GetItemCommand'],
    );
  });

  it("a secret key's update that changes nothing reads the application once more, consistently, and writes nothing", async () => {
    const path = `/applications/${tenant.applicationId}`;
    const key = { apiKey: tenant.secretKey };
    const name = (await manage(app, 'GET', path, key)).body.name as string;
    // A first write route notes the key's use (once a minute): the measured one does not.
    await manage(app, 'PATCH', path, key, { name });
    await expectCalls(() => manage(app, 'PATCH', path, key, { name }), 200, [
      'GetItemCommand',
      'GetItemCommand',
      'GetItemCommand',
    ]);
  });
});
