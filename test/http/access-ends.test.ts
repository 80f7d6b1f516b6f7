import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PLATFORM_ORIGIN, startTestApp, type TestApp } from '../support/app.ts';
import { freshIp } from '../support/http-client.ts';
import { bearer, newEmail, signIn } from '../support/sign-in.ts';
import { type Between, storeLandingBetween } from '../support/store.ts';
import { addSignedInMember, createOwnedApplication, manage } from '../support/tenancy.ts';

// docs/api.md, Impersonation ("What ends an impersonation") and sign-out; docs/security.md, "What
// ends access": an impersonation never outlives the browser that signed out, nor the role or the
// membership that allowed it, nor its application. Each end is recorded as POST
// /impersonation/{id}/end records it (`endedAt`, the session deleted, `impersonation.ended`),
// with its cause.

/** Another request landing between a request's read and its write (test/support/store.ts). */
const armed: { next: Between | null } = { next: null };

let app: TestApp;
beforeAll(async () => {
  app = await startTestApp({
    overrides: (defaults) => ({ db: storeLandingBetween(defaults.config, armed) }),
  });
});
afterAll(() => app.close());

const REASON = 'Ticket 9: the settings page is blank';

/** An application of a fresh owner, an admin of its organization, and one end user. */
async function organizationWithAdmin() {
  const owned = await createOwnedApplication(app);
  const admin = await addSignedInMember(app, owned.owner.token, owned.organizationId, 'admin');
  const endUser = await signIn(app, newEmail(), { 'x-api-key': owned.publicKey });
  return { ...owned, admin, userId: endUser.body.user.id as string };
}

type Organization = Awaited<ReturnType<typeof organizationWithAdmin>>;

/** The admin starts impersonating the end user: its token and id. */
async function impersonateAsAdmin(o: Organization) {
  const started = await manage(
    app,
    'POST',
    `/applications/${o.applicationId}/users/${o.userId}/impersonate`,
    { token: o.admin.token },
    { reason: REASON },
  );
  expect(started.status, started.text).toBe(201);
  return { token: started.body.token as string, id: started.body.impersonation.id as string };
}

/**
 * The impersonation entries of the application's trail, as the owner reads it: action and cause,
 * by action (the injected clock stands still, so entries of one test share their time).
 */
async function impersonationTrail(o: { applicationId: string; owner: { token: string } }) {
  const listed = await manage(app, 'GET', `/applications/${o.applicationId}/audit?limit=100`, {
    token: o.owner.token,
  });
  expect(listed.status, listed.text).toBe(200);
  return (listed.body.items as Array<{ action: string; cause?: string }>)
    .filter((entry) => entry.action.startsWith('impersonation.'))
    .map((entry) => ({ action: entry.action, cause: entry.cause }))
    .sort((a, b) => a.action.localeCompare(b.action));
}

/** The impersonation's token no longer works: it is no session, and changes no profile. */
async function expectRefused(token: string) {
  const info = await app.request('GET', '/auth/session', { headers: bearer(token) });
  expect(info.status).toBe(401);
  const changed = await app.request('POST', '/auth/update-user', {
    body: { name: 'Changed by a support user' },
    headers: bearer(token),
    ip: freshIp(),
  });
  expect(changed.status).toBe(401);
}

const cookieOf = (setCookie: string | string[] | undefined) =>
  String(Array.isArray(setCookie) ? setCookie[0] : setCookie).split(';')[0] as string;

describe('POST /auth/sign-out with the impersonation cookie', () => {
  it('from a platform origin ends the impersonation with the session, and clears both cookies', async () => {
    // Prepare: the support user works in the dashboard, its session and its impersonation cookies.
    const owned = await createOwnedApplication(app);
    const endUser = await signIn(app, newEmail(), { 'x-api-key': owned.publicKey });
    const support = await signIn(app, newEmail(), { origin: PLATFORM_ORIGIN });
    const invited = await manage(
      app,
      'POST',
      `/organizations/${owned.organizationId}/members`,
      { token: owned.owner.token },
      { email: support.email, role: 'admin' },
    );
    expect(invited.status).toBe(202);
    await manage(app, 'POST', `/invitations/${owned.organizationId}/accept`, { token: support.token });
    const sessionCookie = cookieOf(support.response.headers['set-cookie']);
    const started = await app.request(
      'POST',
      `/applications/${owned.applicationId}/users/${endUser.body.user.id}/impersonate`,
      {
        body: { reason: REASON },
        headers: { cookie: sessionCookie, origin: PLATFORM_ORIGIN },
        ip: freshIp(),
      },
    );
    expect(started.status, started.text).toBe(201);
    const impersonationCookie = cookieOf(started.headers['set-cookie']);
    const cookies = `${sessionCookie}; ${impersonationCookie}`;

    // Act
    const signedOut = await app.request('POST', '/auth/sign-out', {
      headers: { cookie: cookies, origin: PLATFORM_ORIGIN },
      ip: freshIp(),
    });

    // Assess
    expect(signedOut.status).toBe(200);
    expect(signedOut.headers['set-cookie']).toEqual([
      'doorcode.session_token=; Max-Age=0; HttpOnly; Secure; SameSite=Lax; Path=/',
      'doorcode.impersonation_token=; Max-Age=0; HttpOnly; Secure; SameSite=Lax; Path=/',
    ]);
    // The impersonation cookie, still sent, carries nothing any more: the caller is anonymous.
    const afterwards = await app.request('GET', '/auth/session', {
      headers: { cookie: impersonationCookie, origin: PLATFORM_ORIGIN },
    });
    expect(afterwards.status).toBe(200);
    expect(afterwards.body).toEqual({});
    await expectRefused(started.body.token);
    expect(await impersonationTrail(owned)).toEqual([
      { action: 'impersonation.ended', cause: 'signed-out' },
      { action: 'impersonation.started', cause: undefined },
    ]);
  });
});

describe('losing access ends the impersonations it allowed', () => {
  it('removing the admin ends its impersonation at once (cause member-removed)', async () => {
    // Prepare
    const o = await organizationWithAdmin();
    const impersonation = await impersonateAsAdmin(o);
    // Act
    const removed = await manage(
      app,
      'DELETE',
      `/organizations/${o.organizationId}/members/${o.admin.userId}`,
      {
        token: o.owner.token,
      },
    );
    // Assess
    expect(removed.status, removed.text).toBe(204);
    await expectRefused(impersonation.token);
    expect(await impersonationTrail(o)).toEqual([
      { action: 'impersonation.ended', cause: 'member-removed' },
      { action: 'impersonation.started', cause: undefined },
    ]);
  });

  it('making the admin an owner ends nothing; demoting it to member does (cause member-demoted)', async () => {
    // Prepare: an owner may impersonate too, so the promotion leaves the impersonation running.
    const o = await organizationWithAdmin();
    const impersonation = await impersonateAsAdmin(o);
    const promoted = await manage(
      app,
      'PATCH',
      `/organizations/${o.organizationId}/members/${o.admin.userId}`,
      { token: o.owner.token },
      { role: 'owner' },
    );
    expect(promoted.status, promoted.text).toBe(200);
    const running = await app.request('GET', '/auth/session', { headers: bearer(impersonation.token) });
    expect(running.body.impersonation?.id).toBe(impersonation.id);
    // Act
    const demoted = await manage(
      app,
      'PATCH',
      `/organizations/${o.organizationId}/members/${o.admin.userId}`,
      { token: o.owner.token },
      { role: 'member' },
    );
    // Assess: the demoted member starts no other one either.
    expect(demoted.status, demoted.text).toBe(200);
    await expectRefused(impersonation.token);
    expect(await impersonationTrail(o)).toEqual([
      { action: 'impersonation.ended', cause: 'member-demoted' },
      { action: 'impersonation.started', cause: undefined },
    ]);
    const again = await manage(
      app,
      'POST',
      `/applications/${o.applicationId}/users/${o.userId}/impersonate`,
      { token: o.admin.token },
      { reason: REASON },
    );
    expect(again.status).toBe(403);
  });

  it('the admin leaving ends it (cause member-left)', async () => {
    // Prepare
    const o = await organizationWithAdmin();
    const impersonation = await impersonateAsAdmin(o);
    // Act
    const left = await manage(app, 'DELETE', `/organizations/${o.organizationId}/members/${o.admin.userId}`, {
      token: o.admin.token,
    });
    // Assess
    expect(left.status, left.text).toBe(204);
    await expectRefused(impersonation.token);
    expect(await impersonationTrail(o)).toEqual([
      { action: 'impersonation.ended', cause: 'member-left' },
      { action: 'impersonation.started', cause: undefined },
    ]);
  });

  it('deleting the application ends its impersonations with it, then its organization can go', async () => {
    // Prepare
    const o = await organizationWithAdmin();
    const byAdmin = await impersonateAsAdmin(o);
    const byOwner = await manage(
      app,
      'POST',
      `/applications/${o.applicationId}/users/${o.userId}/impersonate`,
      { token: o.owner.token },
      { reason: REASON },
    );
    expect(byOwner.status).toBe(201);
    const deletedAt = new Date(app.clock.now()).toISOString();

    // Act
    const deleted = await manage(app, 'DELETE', `/applications/${o.applicationId}`, { token: o.owner.token });
    app.clock.advance(60_000);

    // Assess: each record was ended by the deletion, not now by its own end route (which answers the
    // record as it is when it has ended already).
    expect(deleted.status, deleted.text).toBe(204);
    for (const { id, token } of [byAdmin, { id: byOwner.body.impersonation.id, token: byOwner.body.token }]) {
      const record = await app.request('POST', `/impersonation/${id}/end`, {
        headers: bearer(token),
        ip: freshIp(),
      });
      expect(record.status, record.text).toBe(200);
      expect(record.body.endedAt).toBe(deletedAt);
      await expectRefused(token);
    }
    // The application's trail is gone with it: the organization's deletion entry names what ended.
    const trail = await manage(
      app,
      'GET',
      `/organizations/${o.organizationId}/audit?action=application.deleted`,
      { token: o.owner.token },
    );
    expect(trail.body.items).toHaveLength(1);
    expect(trail.body.items[0].changes).toEqual([
      {
        path: 'runningImpersonations',
        from: expect.arrayContaining([byAdmin.id, byOwner.body.impersonation.id]),
        to: [],
      },
    ]);
    const organization = await manage(app, 'DELETE', `/organizations/${o.organizationId}`, {
      token: o.owner.token,
    });
    expect(organization.status, organization.text).toBe(204);
  });
});

describe('more impersonations than one transaction ends', () => {
  it('ends them all: ten in the removal, the rest right after it, each recorded once', async () => {
    // Prepare: twelve running, two more than the removal's transaction holds (docs/security.md, Bound).
    const o = await organizationWithAdmin();
    const running = [];
    for (let n = 0; n < 12; n++) running.push(await impersonateAsAdmin(o));

    // Act
    const removed = await manage(
      app,
      'DELETE',
      `/organizations/${o.organizationId}/members/${o.admin.userId}`,
      {
        token: o.owner.token,
      },
    );

    // Assess
    expect(removed.status, removed.text).toBe(204);
    for (const { token } of running) await expectRefused(token);
    const trail = await impersonationTrail(o);
    expect(trail.filter((entry) => entry.action === 'impersonation.ended')).toEqual(
      running.map(() => ({ action: 'impersonation.ended', cause: 'member-removed' })),
    );
  });
});

describe('a removal racing impersonation starts by the same admin', () => {
  const removeAdmin = (o: Organization) =>
    manage(app, 'DELETE', `/organizations/${o.organizationId}/members/${o.admin.userId}`, {
      token: o.owner.token,
    });

  it('ends a start that landed between its read of the impersonations and its write', async () => {
    // Prepare
    const o = await organizationWithAdmin();
    const first = await impersonateAsAdmin(o);
    let late: { token: string; id: string } | null = null;
    armed.next = {
      // The removal's read of the admin's running impersonations.
      when: (command, input) =>
        command === 'QueryCommand' &&
        String(input.ExpressionAttributeValues?.[':from']).startsWith(`IMP#${o.admin.userId}#`),
      run: async () => {
        late = await impersonateAsAdmin(o);
      },
    };
    // Act
    const removed = await removeAdmin(o);
    // Assess
    expect(removed.status, removed.text).toBe(204);
    expect(armed.next).toBeNull();
    expect(late).not.toBeNull();
    for (const impersonation of [first, late as unknown as { token: string }]) {
      await expectRefused(impersonation.token);
    }
    expect(await impersonationTrail(o)).toEqual([
      { action: 'impersonation.ended', cause: 'member-removed' },
      { action: 'impersonation.ended', cause: 'member-removed' },
      { action: 'impersonation.started', cause: undefined },
      { action: 'impersonation.started', cause: undefined },
    ]);
  });

  it('refuses a start whose authorization came before the removal and its write after', async () => {
    // Prepare
    const o = await organizationWithAdmin();
    let removal: number | null = null;
    armed.next = {
      // The start's read of the admin's membership (its authorization).
      when: (command, input) => command === 'GetItemCommand' && input.Key?.sk === `MEMBER#${o.admin.userId}`,
      run: async () => {
        removal = (await removeAdmin(o)).status;
      },
    };
    // Act
    const started = await manage(
      app,
      'POST',
      `/applications/${o.applicationId}/users/${o.userId}/impersonate`,
      { token: o.admin.token },
      { reason: REASON },
    );
    // Assess: nothing was written, so nothing runs and nothing is recorded.
    expect(removal).toBe(204);
    expect(started.status, started.text).toBe(404);
    expect(await impersonationTrail(o)).toEqual([]);
  });

  it('leaves no live impersonation of the removed admin', async () => {
    // Prepare: several end users, so each start is its own session.
    const o = await organizationWithAdmin();
    const users = [o.userId];
    for (let n = 0; n < 5; n++) {
      users.push((await signIn(app, newEmail(), { 'x-api-key': o.publicKey })).body.user.id as string);
    }
    const start = (userId: string) =>
      manage(
        app,
        'POST',
        `/applications/${o.applicationId}/users/${userId}/impersonate`,
        { token: o.admin.token },
        { reason: REASON },
      );
    const remove = () => removeAdmin(o);
    // One start lands first, so the removal always has one to end.
    const first = await start(o.userId);
    expect(first.status).toBe(201);

    // Act: the other starts and the removal at once; the removal answers 429 (busy) only if starts
    // kept landing between its read and its write, and is then sent again, as a client would.
    const [removal, ...starts] = await Promise.all([remove(), ...users.map(start)]);
    let removed = removal;
    while (removed.status === 429) removed = await remove();

    // Assess
    expect(removed.status, removed.text).toBe(204);
    const landed = [first, ...starts].filter((answer) => answer.status === 201);
    for (const answer of [first, ...starts]) expect([201, 404]).toContain(answer.status);
    for (const answer of landed) await expectRefused(answer.body.token);
    const trail = await impersonationTrail(o);
    const ended = trail.filter((entry) => entry.action === 'impersonation.ended');
    expect(ended).toHaveLength(landed.length);
    expect(ended.every((entry) => entry.cause === 'member-removed')).toBe(true);
    expect(trail.filter((entry) => entry.action === 'impersonation.started')).toHaveLength(landed.length);
  });
});
