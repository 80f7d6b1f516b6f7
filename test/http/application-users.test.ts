import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../support/app.ts';
import { expectError } from '../support/expect-error.ts';
import { freshIp } from '../support/http-client.ts';
import { latestCode } from '../support/inbox.ts';
import { bearer, newEmail, signIn } from '../support/sign-in.ts';
import { addSignedInMember, createOwnedApplication, manage } from '../support/tenancy.ts';

let app: TestApp;
beforeAll(async () => {
  app = await startTestApp({ statistics: true });
});
afterAll(() => app.close());

type Owned = Awaited<ReturnType<typeof createOwnedApplication>>;

/** An end user of the application signed in with its public key: its token and user id. */
async function endUser(owned: Owned, email = newEmail()) {
  const signedIn = await signIn(app, email, { 'x-api-key': owned.publicKey });
  return { email, token: signedIn.token, userId: signedIn.body.user.id as string };
}

const session = (token: string) => app.request('GET', '/auth/session', { headers: bearer(token) });

const users = (owned: Owned) => `/applications/${owned.applicationId}/users`;

describe('GET /applications/{applicationId}/users', () => {
  it('pages the users by address with the counted total', async () => {
    // Prepare
    const owned = await createOwnedApplication(app);
    const emails = [newEmail(), newEmail(), newEmail()];
    for (const email of emails) await endUser(owned, email);
    const secret = { apiKey: owned.secretKey };

    // Act
    await app.caughtUp();
    const first = await manage(app, 'GET', `${users(owned)}?limit=2`, secret);
    const second = await manage(app, 'GET', `${users(owned)}?limit=2&offset=2`, secret);

    // Assess
    expect(first.status, first.text).toBe(200);
    const sorted = [...emails].sort();
    expect(first.body.items.map((user: { email: string }) => user.email)).toEqual(sorted.slice(0, 2));
    expect(first.body.page).toEqual({ limit: 2, offset: 0, total: 3, hasMore: true });
    expect(second.body.items.map((user: { email: string }) => user.email)).toEqual(sorted.slice(2));
    expect(second.body.page).toEqual({ limit: 2, offset: 2, total: 3, hasMore: false });
    expect(first.body.items[0]).toMatchObject({
      emailVerified: true,
      disabled: false,
      disabledAt: null,
      lastSignInAt: expect.any(String),
    });
  });

  it('counts a user once however often it signs in', async () => {
    // Prepare
    const owned = await createOwnedApplication(app);
    const user = await endUser(owned);

    // Act
    await endUser(owned, user.email);
    await app.caughtUp();
    const list = await manage(app, 'GET', users(owned), { token: owned.owner.token });

    // Assess
    expect(list.body.page.total).toBe(1);
    expect(list.body.items).toHaveLength(1);
  });
});

describe('GET /applications/{applicationId}/users/search', () => {
  it('finds users by address prefix or name prefix, case-insensitively, and follows a name change', async () => {
    // Prepare
    const owned = await createOwnedApplication(app);
    const tag = randomUUID().slice(0, 8);
    const zed = await endUser(owned, `zed-${tag}@example.test`);
    const named = await endUser(owned);
    await endUser(owned);
    const renamed = await app.request('POST', '/auth/update-user', {
      headers: bearer(named.token),
      body: { name: 'Émile Zola' },
      ip: freshIp(),
    });
    expect(renamed.status, renamed.text).toBe(200);
    const search = (q: string) =>
      manage(app, 'GET', `${users(owned)}/search?q=${encodeURIComponent(q)}`, { apiKey: owned.secretKey });

    // Act
    const byEmail = await search(`ZED-${tag.toUpperCase()}`);
    const byName = await search('éMI');
    const renamedAgain = await manage(
      app,
      'PATCH',
      `${users(owned)}/${named.userId}`,
      { apiKey: owned.secretKey },
      { name: 'Bob Z' },
    );
    const oldName = await search('émile');
    const newName = await search('bob');

    // Assess
    expect(byEmail.status, byEmail.text).toBe(200);
    expect(byEmail.body.items.map((user: { id: string }) => user.id)).toEqual([zed.userId]);
    expect(byEmail.body.page).toEqual({ limit: 20, offset: 0, total: 1, hasMore: false });
    expect(byName.body.items.map((user: { id: string }) => user.id)).toEqual([named.userId]);
    expect(renamedAgain.status, renamedAgain.text).toBe(200);
    expect(renamedAgain.body.name).toBe('Bob Z');
    expect(oldName.body.items).toEqual([]);
    expect(newName.body.items.map((user: { id: string }) => user.id)).toEqual([named.userId]);
  });

  it('refuses an empty query', async () => {
    const owned = await createOwnedApplication(app);
    expectError(
      await manage(app, 'GET', `${users(owned)}/search?q=`, { apiKey: owned.secretKey }),
      400,
      'VALIDATION_ERROR',
    );
  });
});

describe('names that NFKC makes long', () => {
  // 120 characters that pass the name rules but become 2160 characters (3960 bytes) under NFKC:
  // over the 1024 bytes an index sort key holds, unless the search key is cut.
  const longName = '\uFDFA'.repeat(120);

  it('sign in, change names and stay searchable by their first characters', async () => {
    // Prepare
    const owned = await createOwnedApplication(app);
    const headers = { 'x-api-key': owned.publicKey };
    const email = newEmail();

    // Act: a first sign-in with the name, then a change to it.
    const start = await app.request('POST', '/auth/code/start', {
      body: { email, name: longName },
      headers,
      ip: freshIp(),
    });
    const verify = await app.request('POST', '/auth/code/verify', {
      body: { email, code: await latestCode(email) },
      headers,
      ip: freshIp(),
    });
    const changed = await app.request('POST', '/auth/update-user', {
      body: { name: `${longName.slice(0, 119)}x` },
      headers: bearer(verify.body.token),
      ip: freshIp(),
    });

    // Assess
    expect([start.status, verify.status, changed.status]).toEqual([200, 200, 200]);
    const found = await manage(app, 'GET', `${users(owned)}/search?q=${encodeURIComponent('\uFDFA')}`, {
      token: owned.owner.token,
    });
    expect(found.body.items.map((user: { email: string }) => user.email)).toEqual([email]);
  });
});

describe('disable and enable', () => {
  it('refuses the existing token on the very next request and a new sign-in, and enabling restores sign-in', async () => {
    // Prepare
    const owned = await createOwnedApplication(app);
    const user = await endUser(owned);
    expect((await session(user.token)).status).toBe(200);
    const key = { 'x-api-key': owned.publicKey };
    const start = await app.request('POST', '/auth/code/start', {
      body: { email: user.email },
      headers: key,
      ip: freshIp(),
    });
    expect(start.status).toBe(200);
    const code = await latestCode(user.email);

    // Act
    const disabled = await manage(app, 'POST', `${users(owned)}/${user.userId}/disable`, {
      apiKey: owned.secretKey,
    });
    const next = await session(user.token);
    const refused = await app.request('POST', '/auth/code/verify', {
      body: { email: user.email, code },
      headers: key,
      ip: freshIp(),
    });
    const approveRefused = await app.request('POST', '/auth/code/approve', {
      body: { email: user.email, code },
      headers: key,
      ip: freshIp(),
    });
    const enabled = await manage(app, 'POST', `${users(owned)}/${user.userId}/enable`, {
      apiKey: owned.secretKey,
    });
    const verified = await app.request('POST', '/auth/code/verify', {
      body: { email: user.email, code },
      headers: key,
      ip: freshIp(),
    });

    // Assess
    expect(disabled.status, disabled.text).toBe(200);
    expect(disabled.body).toMatchObject({ id: user.userId, disabled: true, disabledAt: expect.any(String) });
    expectError(next, 401, 'UNAUTHORIZED');
    expectError(refused, 403, 'ACCOUNT_DISABLED');
    expectError(approveRefused, 403, 'ACCOUNT_DISABLED');
    expect(enabled.body).toMatchObject({ disabled: false, disabledAt: null });
    // The refused code was not consumed: it signs in once the user is enabled.
    expect(verified.status, verified.text).toBe(200);
    expect(verified.body.user.id).toBe(user.userId);
    // The old token stays ended after enabling.
    expectError(await session(user.token), 401, 'UNAUTHORIZED');
    expect((await session(verified.body.token)).status).toBe(200);
  });

  it('refuses a poll whose code was approved before the user was disabled', async () => {
    // Prepare
    const owned = await createOwnedApplication(app);
    const user = await endUser(owned);
    const key = { 'x-api-key': owned.publicKey };
    const start = await app.request('POST', '/auth/code/start', {
      body: { email: user.email },
      headers: key,
      ip: freshIp(),
    });
    const code = await latestCode(user.email);
    const approved = await app.request('POST', '/auth/code/approve', {
      body: { email: user.email, code },
      headers: key,
      ip: freshIp(),
    });
    expect(approved.status).toBe(200);
    await manage(app, 'POST', `${users(owned)}/${user.userId}/disable`, { apiKey: owned.secretKey });

    // Act
    const poll = await app.request('POST', '/auth/code/poll', {
      body: { deviceCode: start.body.deviceCode },
      ip: freshIp(),
    });

    // Assess
    expectError(poll, 403, 'ACCOUNT_DISABLED');
  });
});

describe('DELETE /applications/{applicationId}/users/{userId}', () => {
  it('deletes the user: its token stops, it is gone from the list, its own organization too', async () => {
    // Prepare
    const owned = await createOwnedApplication(app);
    const user = await endUser(owned);
    const other = await endUser(owned);
    const secret = { apiKey: owned.secretKey };
    await app.caughtUp();
    const orgsBefore = await manage(app, 'GET', `/applications/${owned.applicationId}/organizations`, secret);

    // Act
    const deleted = await manage(app, 'DELETE', `${users(owned)}/${user.userId}`, secret);

    // Assess
    expect(deleted.status, deleted.text).toBe(204);
    expectError(await session(user.token), 401, 'UNAUTHORIZED');
    expectError(await manage(app, 'GET', `${users(owned)}/${user.userId}`, secret), 404, 'NOT_FOUND');
    expectError(await manage(app, 'DELETE', `${users(owned)}/${user.userId}`, secret), 404, 'NOT_FOUND');
    await app.caughtUp();
    const list = await manage(app, 'GET', users(owned), secret);
    expect(list.body.items.map((item: { id: string }) => item.id)).toEqual([other.userId]);
    expect(list.body.page.total).toBe(1);
    const orgsAfter = await manage(app, 'GET', `/applications/${owned.applicationId}/organizations`, secret);
    expect(orgsBefore.body.page.total).toBe(2);
    expect(orgsAfter.body.page.total).toBe(1);
    expect(orgsAfter.body.items).toHaveLength(1);
    // The address may sign up afresh: a new user.
    const again = await endUser(owned, user.email);
    expect(again.userId).not.toBe(user.userId);
    expect((await session(other.token)).status).toBe(200);
  });
});

describe('DELETE of a user who shares an organization', () => {
  it('removes its membership and keeps the organization and its other members', async () => {
    // Prepare
    const owned = await createOwnedApplication(app);
    const ada = await endUser(owned);
    const bob = await endUser(owned);
    const secret = { apiKey: owned.secretKey };
    const orgs = `/applications/${owned.applicationId}/organizations`;
    const team = await manage(app, 'POST', orgs, secret, { name: 'Team', userId: ada.userId });
    const members = `${orgs}/${team.body.id}/members`;
    await manage(app, 'POST', members, secret, { email: bob.email });

    // Act
    const deleted = await manage(app, 'DELETE', `${users(owned)}/${ada.userId}`, secret);

    // Assess
    expect(deleted.status, deleted.text).toBe(204);
    const left = await manage(app, 'GET', members, secret);
    expect(left.body.items.map((member: { userId: string }) => member.userId)).toEqual([bob.userId]);
    expect((await manage(app, 'GET', `${orgs}/${team.body.id}`, secret)).body.memberCount).toBe(1);
    // Without an owner, the application's managers make one.
    const promoted = await manage(app, 'PATCH', `${members}/${bob.userId}`, secret, { role: 'owner' });
    expect(promoted.body.role).toBe('owner');
  });
});

describe('POST /applications/{applicationId}/users/{userId}/revoke-sessions', () => {
  it('ends every session of the user; it can sign in again', async () => {
    // Prepare
    const owned = await createOwnedApplication(app);
    const user = await endUser(owned);
    const second = await signIn(app, user.email, { 'x-api-key': owned.publicKey });

    // Act
    const revoked = await manage(app, 'POST', `${users(owned)}/${user.userId}/revoke-sessions`, {
      token: owned.owner.token,
    });

    // Assess
    expect(revoked.status, revoked.text).toBe(200);
    expect(revoked.body).toEqual({ revoked: true, count: 2 });
    expectError(await session(user.token), 401, 'UNAUTHORIZED');
    expectError(await session(second.token), 401, 'UNAUTHORIZED');
    const again = await signIn(app, user.email, { 'x-api-key': owned.publicKey });
    expect((await session(again.token)).status).toBe(200);
  });
});

describe('GET and PATCH /applications/{applicationId}/users/{userId}', () => {
  it('reads the user and updates its name and image as update-user does', async () => {
    // Prepare
    const owned = await createOwnedApplication(app);
    const user = await endUser(owned);
    const path = `${users(owned)}/${user.userId}`;

    // Act
    const patched = await manage(
      app,
      'PATCH',
      path,
      { apiKey: owned.secretKey },
      {
        name: 'Ada',
        image: 'https://images.example.com/ada.png',
      },
    );
    const read = await manage(app, 'GET', path, { apiKey: owned.secretKey });
    const own = await session(user.token);

    // Assess
    expect(patched.status, patched.text).toBe(200);
    expect(read.body).toMatchObject({
      id: user.userId,
      email: user.email,
      name: 'Ada',
      image: 'https://images.example.com/ada.png',
      disabled: false,
    });
    expect(own.body.user.name).toBe('Ada');
  });
});

describe('who may manage application users (permission matrix)', () => {
  it('lets members read and refuses their writes; refuses public keys, end users, strangers and no credential', async () => {
    // Prepare
    const owned = await createOwnedApplication(app);
    const user = await endUser(owned);
    const member = await addSignedInMember(app, owned.owner.token, owned.organizationId, 'member');
    const admin = await addSignedInMember(app, owned.owner.token, owned.organizationId, 'admin');
    const stranger = await createOwnedApplication(app, 'Other App');
    const path = `${users(owned)}/${user.userId}`;

    // Act + Assess
    expect((await manage(app, 'GET', users(owned), { token: member.token })).status).toBe(200);
    expect((await manage(app, 'GET', `${users(owned)}/search?q=u`, { token: member.token })).status).toBe(
      200,
    );
    expect((await manage(app, 'GET', path, { token: member.token })).status).toBe(200);
    expectError(await manage(app, 'POST', `${path}/disable`, { token: member.token }), 403, 'FORBIDDEN');
    expectError(await manage(app, 'PATCH', path, { token: member.token }, { name: 'X' }), 403, 'FORBIDDEN');
    expectError(await manage(app, 'DELETE', path, { token: member.token }), 403, 'FORBIDDEN');
    expectError(
      await manage(app, 'POST', `${path}/revoke-sessions`, { token: member.token }),
      403,
      'FORBIDDEN',
    );
    expect((await manage(app, 'POST', `${path}/revoke-sessions`, { token: admin.token })).status).toBe(200);

    expectError(await manage(app, 'GET', users(owned), { apiKey: owned.publicKey }), 403, 'FORBIDDEN');
    expectError(await manage(app, 'POST', `${path}/disable`, { apiKey: owned.publicKey }), 403, 'FORBIDDEN');
    const fresh = await endUser(owned);
    expectError(await manage(app, 'GET', users(owned), { token: fresh.token }), 403, 'FORBIDDEN');
    expectError(
      await manage(app, 'GET', `${users(owned)}/${fresh.userId}`, { token: fresh.token }),
      403,
      'FORBIDDEN',
    );

    expectError(await manage(app, 'GET', users(owned), { token: stranger.owner.token }), 404, 'NOT_FOUND');
    expectError(await manage(app, 'GET', path, { token: stranger.owner.token }), 404, 'NOT_FOUND');
    expectError(
      await manage(app, 'POST', `${path}/disable`, { token: stranger.owner.token }),
      404,
      'NOT_FOUND',
    );
    expectError(await manage(app, 'GET', users(owned), { apiKey: stranger.secretKey }), 404, 'NOT_FOUND');

    expectError(await manage(app, 'GET', users(owned), {}), 401, 'UNAUTHORIZED');
    expectError(await manage(app, 'DELETE', path, {}), 401, 'UNAUTHORIZED');
  });

  it('answers 404 for a user of another application named through this one', async () => {
    // Prepare
    const a = await createOwnedApplication(app);
    const b = await createOwnedApplication(app, 'Bee');
    const userOfB = await endUser(b);
    const platformUser = await signIn(app);
    const pathA = (id: string) => `${users(a)}/${id}`;

    // Act + Assess
    for (const id of [userOfB.userId, platformUser.body.user.id as string, 'usr_nobody']) {
      expectError(await manage(app, 'GET', pathA(id), { apiKey: a.secretKey }), 404, 'NOT_FOUND');
      expectError(
        await manage(app, 'POST', `${pathA(id)}/disable`, { apiKey: a.secretKey }),
        404,
        'NOT_FOUND',
      );
      expectError(await manage(app, 'DELETE', pathA(id), { apiKey: a.secretKey }), 404, 'NOT_FOUND');
      expectError(
        await manage(app, 'PATCH', pathA(id), { apiKey: a.secretKey }, { name: 'X' }),
        404,
        'NOT_FOUND',
      );
      expectError(
        await manage(app, 'POST', `${pathA(id)}/revoke-sessions`, { token: a.owner.token }),
        404,
        'NOT_FOUND',
      );
    }
    // B's user still signs in and is intact.
    expect((await session(userOfB.token)).status).toBe(200);
  });
});
