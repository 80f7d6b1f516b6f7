import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../support/app.ts';
import { expectError } from '../support/expect-error.ts';
import { newEmail, signIn } from '../support/sign-in.ts';
import { addSignedInMember, createOwnedApplication, manage } from '../support/tenancy.ts';

let app: TestApp;
beforeAll(async () => {
  app = await startTestApp({ statistics: true });
});
afterAll(() => app.close());

type Owned = Awaited<ReturnType<typeof createOwnedApplication>>;

async function endUser(owned: Owned) {
  const signedIn = await signIn(app, newEmail(), { 'x-api-key': owned.publicKey });
  return { email: signedIn.email, token: signedIn.token, userId: signedIn.body.user.id as string };
}

const orgs = (owned: Owned) => `/applications/${owned.applicationId}/organizations`;

describe('tenant organizations of an application', () => {
  it('lists the organizations first sign-ins created, with the counted total', async () => {
    // Prepare
    const owned = await createOwnedApplication(app);
    await endUser(owned);
    await endUser(owned);
    await endUser(owned);

    // Act
    await app.caughtUp();
    const first = await manage(app, 'GET', `${orgs(owned)}?limit=2`, { apiKey: owned.secretKey });
    const rest = await manage(app, 'GET', `${orgs(owned)}?limit=2&offset=2`, { apiKey: owned.secretKey });

    // Assess
    expect(first.status, first.text).toBe(200);
    expect(first.body.items).toHaveLength(2);
    expect(first.body.page).toEqual({ limit: 2, offset: 0, total: 3, hasMore: true });
    expect(rest.body.items).toHaveLength(1);
    expect(rest.body.page.hasMore).toBe(false);
    expect(first.body.items[0]).toMatchObject({ applicationId: owned.applicationId, memberCount: 1 });
  });

  it('creates (owner by address or id), reads, renames and deletes an organization', async () => {
    // Prepare
    const owned = await createOwnedApplication(app);
    const ada = await endUser(owned);
    const bob = await endUser(owned);
    const secret = { apiKey: owned.secretKey };

    // Act
    const byEmail = await manage(app, 'POST', orgs(owned), secret, { name: 'Team Ada', email: ada.email });
    const byId = await manage(
      app,
      'POST',
      orgs(owned),
      { token: owned.owner.token },
      { name: 'Team Bob', userId: bob.userId },
    );
    const path = `${orgs(owned)}/${byEmail.body.id}`;
    const read = await manage(app, 'GET', path, secret);
    const renamed = await manage(app, 'PATCH', path, secret, { name: 'Team Ada 2' });
    const members = await manage(app, 'GET', `${path}/members`, secret);
    await app.caughtUp();
    const totalBefore = (await manage(app, 'GET', orgs(owned), secret)).body.page.total;
    const deleted = await manage(app, 'DELETE', path, secret);

    // Assess
    expect(byEmail.status, byEmail.text).toBe(201);
    expect(byEmail.body).toMatchObject({
      name: 'Team Ada',
      applicationId: owned.applicationId,
      memberCount: 1,
    });
    expect(byId.status, byId.text).toBe(201);
    expect(read.body).toEqual(byEmail.body);
    expect(renamed.body.name).toBe('Team Ada 2');
    expect(members.body.items).toEqual([
      { userId: ada.userId, email: ada.email, role: 'owner', joinedAt: expect.any(String) },
    ]);
    expect(totalBefore).toBe(4);
    expect(deleted.status, deleted.text).toBe(204);
    expectError(await manage(app, 'GET', path, secret), 404, 'NOT_FOUND');
    await app.caughtUp();
    expect((await manage(app, 'GET', orgs(owned), secret)).body.page.total).toBe(3);
  });

  it('refuses an owner who is not a user of the application', async () => {
    const owned = await createOwnedApplication(app);
    const other = await createOwnedApplication(app, 'Other');
    const foreign = await endUser(other);
    const secret = { apiKey: owned.secretKey };
    expectError(
      await manage(app, 'POST', orgs(owned), secret, { name: 'T', userId: foreign.userId }),
      404,
      'NOT_FOUND',
    );
    expectError(
      await manage(app, 'POST', orgs(owned), secret, { name: 'T', email: foreign.email }),
      404,
      'NOT_FOUND',
    );
    expectError(await manage(app, 'POST', orgs(owned), secret, { name: 'T' }), 400, 'VALIDATION_ERROR');
  });

  it('adds members by address, changes roles, removes them, and always keeps an owner', async () => {
    // Prepare
    const owned = await createOwnedApplication(app);
    const ada = await endUser(owned);
    const bob = await endUser(owned);
    const secret = { apiKey: owned.secretKey };
    const created = await manage(app, 'POST', orgs(owned), secret, { name: 'Team', email: ada.email });
    const members = `${orgs(owned)}/${created.body.id}/members`;

    // Act + Assess
    const added = await manage(app, 'POST', members, { token: owned.owner.token }, { email: bob.email });
    expect(added.status, added.text).toBe(201);
    expect(added.body).toMatchObject({ userId: bob.userId, role: 'member' });
    expectError(await manage(app, 'POST', members, secret, { email: bob.email }), 409, 'ALREADY_MEMBER');
    expectError(await manage(app, 'POST', members, secret, { email: newEmail() }), 404, 'NOT_FOUND');
    expectError(
      await manage(app, 'PATCH', `${members}/${ada.userId}`, secret, { role: 'admin' }),
      409,
      'LAST_OWNER',
    );
    expectError(await manage(app, 'DELETE', `${members}/${ada.userId}`, secret), 409, 'LAST_OWNER');
    const promoted = await manage(app, 'PATCH', `${members}/${bob.userId}`, secret, { role: 'owner' });
    expect(promoted.body.role).toBe('owner');
    expect((await manage(app, 'DELETE', `${members}/${ada.userId}`, secret)).status).toBe(204);
    const left = await manage(app, 'GET', members, secret);
    expect(left.body.items.map((member: { userId: string }) => member.userId)).toEqual([bob.userId]);
    expect(left.body.page).toEqual({ limit: 1, offset: 0, total: null, hasMore: null });
    expectError(await manage(app, 'DELETE', `${members}/${ada.userId}`, secret), 404, 'NOT_FOUND');
  });
});

describe('who may manage tenant organizations (permission matrix)', () => {
  it('lets members read and refuses their writes; refuses public keys, end users, strangers and no credential', async () => {
    // Prepare
    const owned = await createOwnedApplication(app);
    const user = await endUser(owned);
    const listed = await manage(app, 'GET', orgs(owned), { apiKey: owned.secretKey });
    const path = `${orgs(owned)}/${listed.body.items[0].id}`;
    const member = await addSignedInMember(app, owned.owner.token, owned.organizationId, 'member');
    const admin = await addSignedInMember(app, owned.owner.token, owned.organizationId, 'admin');
    const stranger = await createOwnedApplication(app, 'Stranger');

    // Act + Assess
    expect((await manage(app, 'GET', orgs(owned), { token: member.token })).status).toBe(200);
    expect((await manage(app, 'GET', path, { token: member.token })).status).toBe(200);
    expect((await manage(app, 'GET', `${path}/members`, { token: member.token })).status).toBe(200);
    expectError(await manage(app, 'PATCH', path, { token: member.token }, { name: 'X' }), 403, 'FORBIDDEN');
    expectError(await manage(app, 'DELETE', path, { token: member.token }), 403, 'FORBIDDEN');
    expectError(
      await manage(app, 'POST', orgs(owned), { token: member.token }, { name: 'X', userId: user.userId }),
      403,
      'FORBIDDEN',
    );
    expectError(
      await manage(
        app,
        'PATCH',
        `${path}/members/${user.userId}`,
        { token: member.token },
        { role: 'admin' },
      ),
      403,
      'FORBIDDEN',
    );
    expectError(
      await manage(app, 'DELETE', `${path}/members/${user.userId}`, { token: member.token }),
      403,
      'FORBIDDEN',
    );
    expect((await manage(app, 'PATCH', path, { token: admin.token }, { name: 'By admin' })).status).toBe(200);

    expectError(await manage(app, 'GET', orgs(owned), { apiKey: owned.publicKey }), 403, 'FORBIDDEN');
    expectError(await manage(app, 'GET', path, { apiKey: owned.publicKey }), 403, 'FORBIDDEN');
    expectError(await manage(app, 'GET', orgs(owned), { token: user.token }), 403, 'FORBIDDEN');
    expectError(await manage(app, 'GET', `${path}/members`, { token: user.token }), 403, 'FORBIDDEN');

    expectError(await manage(app, 'GET', orgs(owned), { token: stranger.owner.token }), 404, 'NOT_FOUND');
    expectError(await manage(app, 'GET', path, { token: stranger.owner.token }), 404, 'NOT_FOUND');
    expectError(
      await manage(app, 'GET', `${path}/members`, { token: stranger.owner.token }),
      404,
      'NOT_FOUND',
    );
    expectError(await manage(app, 'DELETE', path, { apiKey: stranger.secretKey }), 404, 'NOT_FOUND');

    expectError(await manage(app, 'GET', orgs(owned), {}), 401, 'UNAUTHORIZED');
    expectError(await manage(app, 'GET', `${path}/members`, {}), 401, 'UNAUTHORIZED');
  });

  it('answers 404 for an organization of another application or a platform organization', async () => {
    // Prepare
    const a = await createOwnedApplication(app);
    const b = await createOwnedApplication(app, 'Bee');
    const userOfB = await endUser(b);
    const orgOfB = (await manage(app, 'GET', orgs(b), { apiKey: b.secretKey })).body.items[0].id as string;
    const userOfA = await endUser(a);

    // Act + Assess
    for (const id of [orgOfB, a.organizationId, 'org_nothing']) {
      const path = `${orgs(a)}/${id}`;
      expectError(await manage(app, 'GET', path, { apiKey: a.secretKey }), 404, 'NOT_FOUND');
      expectError(await manage(app, 'PATCH', path, { apiKey: a.secretKey }, { name: 'X' }), 404, 'NOT_FOUND');
      expectError(await manage(app, 'DELETE', path, { token: a.owner.token }), 404, 'NOT_FOUND');
      expectError(await manage(app, 'GET', `${path}/members`, { apiKey: a.secretKey }), 404, 'NOT_FOUND');
      expectError(
        await manage(app, 'POST', `${path}/members`, { apiKey: a.secretKey }, { email: userOfA.email }),
        404,
        'NOT_FOUND',
      );
      expectError(
        await manage(app, 'DELETE', `${path}/members/${userOfB.userId}`, { apiKey: a.secretKey }),
        404,
        'NOT_FOUND',
      );
    }
    // B's organization is untouched.
    const still = await manage(app, 'GET', `${orgs(b)}/${orgOfB}/members`, { apiKey: b.secretKey });
    expect(still.body.items.map((member: { userId: string }) => member.userId)).toEqual([userOfB.userId]);
  });
});
