import { QueryCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { keys } from '../../shared/store/keys.ts';
import { PLATFORM_ORIGIN, startTestApp, type TestApp } from '../support/app.ts';
import { expectError } from '../support/expect-error.ts';
import { freshIp, type TestResponse } from '../support/http-client.ts';
import { latestCode } from '../support/inbox.ts';
import { bearer, newEmail, signIn } from '../support/sign-in.ts';
import { addSignedInMember, createOwnedApplication, manage } from '../support/tenancy.ts';

let app: TestApp;
/** Tenant A: an owner, an admin, a member, its application and keys, and an end user of it. */
let a: Awaited<ReturnType<typeof createOwnedApplication>>;
let admin: { token: string; email: string };
let member: { token: string; userId: string };
let endUser: { token: string };
/** Tenant B: another customer. */
let b: Awaited<ReturnType<typeof createOwnedApplication>>;
/** The id of A's public key, for the calls that name one. */
let aKeyId: string;

beforeAll(async () => {
  app = await startTestApp();
  a = await createOwnedApplication(app, 'Acme Notes');
  admin = await addSignedInMember(app, a.owner.token, a.organizationId, 'admin');
  member = await addSignedInMember(app, a.owner.token, a.organizationId, 'member');
  endUser = { token: (await signIn(app, newEmail(), { 'x-api-key': a.publicKey })).token };
  b = await createOwnedApplication(app, 'Beta Notes');
  const listed = await manage(app, 'GET', `/applications/${a.applicationId}/api-keys`, {
    token: a.owner.token,
  });
  aKeyId = listed.body.items.find((key: { type: string }) => key.type === 'public').id;
});
afterAll(() => app.close());

type Who =
  | 'nobody'
  | 'owner'
  | 'admin'
  | 'member'
  | 'publicKey'
  | 'secretKey'
  | 'endUser'
  | 'otherOwner'
  | 'otherSecretKey';
const as = (who: Who) =>
  ({
    nobody: {},
    owner: { token: a.owner.token },
    admin: { token: admin.token },
    member: { token: member.token },
    publicKey: { apiKey: a.publicKey },
    secretKey: { apiKey: a.secretKey },
    endUser: { token: endUser.token },
    otherOwner: { token: b.owner.token },
    otherSecretKey: { apiKey: b.secretKey },
  })[who];

/** Every management call of this area with a body that would be valid, against tenant A. */
const calls = () =>
  ({
    createOrganization: ['POST', '/organizations', { name: 'Another' }],
    listOrganizations: ['GET', '/organizations', undefined],
    getOrganization: ['GET', `/organizations/${a.organizationId}`, undefined],
    renameOrganization: ['PATCH', `/organizations/${a.organizationId}`, { name: 'Renamed' }],
    deleteOrganization: ['DELETE', `/organizations/${a.organizationId}`, undefined],
    listMembers: ['GET', `/organizations/${a.organizationId}/members`, undefined],
    addMember: [
      'POST',
      `/organizations/${a.organizationId}/members`,
      { email: b.owner.email, role: 'owner' },
    ],
    changeMember: [
      'PATCH',
      `/organizations/${a.organizationId}/members/${a.owner.userId}`,
      { role: 'member' },
    ],
    removeMember: ['DELETE', `/organizations/${a.organizationId}/members/${a.owner.userId}`, undefined],
    createApplication: ['POST', `/application/${a.organizationId}`, { name: 'Third' }],
    listApplications: ['GET', `/organizations/${a.organizationId}/applications`, undefined],
    getApplication: ['GET', `/applications/${a.applicationId}`, undefined],
    updateApplication: ['PATCH', `/applications/${a.applicationId}`, { name: 'Renamed' }],
    deleteApplication: ['DELETE', `/applications/${a.applicationId}`, undefined],
    createApiKey: ['POST', '/api-keys', { applicationId: a.applicationId, type: 'public' }],
    listApiKeys: ['GET', `/applications/${a.applicationId}/api-keys`, undefined],
    revokeApiKey: ['DELETE', `/applications/${a.applicationId}/api-keys/${aKeyId}`, undefined],
    listInvitations: ['GET', '/invitations', undefined],
    acceptInvitation: ['POST', `/invitations/${a.organizationId}/accept`, undefined],
  }) as const;
type Call = keyof ReturnType<typeof calls>;
const callNames: Call[] = [
  'createOrganization',
  'listOrganizations',
  'getOrganization',
  'renameOrganization',
  'deleteOrganization',
  'listMembers',
  'addMember',
  'changeMember',
  'removeMember',
  'createApplication',
  'listApplications',
  'getApplication',
  'updateApplication',
  'deleteApplication',
  'createApiKey',
  'listApiKeys',
  'revokeApiKey',
  'listInvitations',
  'acceptInvitation',
];

/**
 * docs/api.md, "Permission matrix": every cell of the matrix that refuses, with its status. A call absent
 * from a row is allowed to that caller (tested in the behaviour tests below) or not reachable.
 */
const refusals: Record<Exclude<Who, 'owner'>, Partial<Record<Call, 401 | 403 | 404>>> = {
  nobody: Object.fromEntries(callNames.map((call) => [call, 401])) as Record<Call, 401>,
  admin: { deleteOrganization: 403, deleteApplication: 403, changeMember: 403, removeMember: 403 },
  member: {
    renameOrganization: 403,
    deleteOrganization: 403,
    addMember: 403,
    changeMember: 403,
    removeMember: 403,
    createApplication: 403,
    updateApplication: 403,
    deleteApplication: 403,
    createApiKey: 403,
    revokeApiKey: 403,
  },
  publicKey: {
    createOrganization: 403,
    listOrganizations: 403,
    getOrganization: 403,
    renameOrganization: 403,
    deleteOrganization: 403,
    listMembers: 403,
    addMember: 403,
    changeMember: 403,
    removeMember: 403,
    createApplication: 403,
    listApplications: 403,
    getApplication: 403,
    updateApplication: 403,
    deleteApplication: 403,
    createApiKey: 403,
    listApiKeys: 403,
    revokeApiKey: 403,
    listInvitations: 403,
    acceptInvitation: 403,
  },
  secretKey: {
    createOrganization: 403,
    listOrganizations: 403,
    getOrganization: 403,
    renameOrganization: 403,
    deleteOrganization: 403,
    listMembers: 403,
    addMember: 403,
    changeMember: 403,
    removeMember: 403,
    createApplication: 403,
    listApplications: 403,
    deleteApplication: 403,
    createApiKey: 403,
    revokeApiKey: 403,
    listInvitations: 403,
    acceptInvitation: 403,
  },
  endUser: {
    createOrganization: 403,
    listOrganizations: 403,
    getOrganization: 403,
    renameOrganization: 403,
    deleteOrganization: 403,
    listMembers: 403,
    addMember: 403,
    changeMember: 403,
    removeMember: 403,
    createApplication: 403,
    listApplications: 403,
    getApplication: 403,
    updateApplication: 403,
    deleteApplication: 403,
    createApiKey: 403,
    listApiKeys: 403,
    revokeApiKey: 403,
    listInvitations: 403,
    acceptInvitation: 403,
  },
  // Another tenant never learns that A's organization or application exists.
  otherOwner: {
    getOrganization: 404,
    renameOrganization: 404,
    deleteOrganization: 404,
    listMembers: 404,
    addMember: 404,
    changeMember: 404,
    removeMember: 404,
    createApplication: 404,
    listApplications: 404,
    getApplication: 404,
    updateApplication: 404,
    deleteApplication: 404,
    createApiKey: 404,
    listApiKeys: 404,
    revokeApiKey: 404,
    // Invited to nothing.
    acceptInvitation: 404,
  },
  otherSecretKey: {
    createOrganization: 403,
    listOrganizations: 403,
    getOrganization: 404,
    renameOrganization: 404,
    deleteOrganization: 404,
    listMembers: 404,
    addMember: 404,
    changeMember: 404,
    removeMember: 404,
    createApplication: 404,
    listApplications: 404,
    getApplication: 404,
    updateApplication: 404,
    deleteApplication: 404,
    createApiKey: 404,
    listApiKeys: 404,
    revokeApiKey: 404,
    listInvitations: 403,
    acceptInvitation: 403,
  },
};
const codes = { 401: 'UNAUTHORIZED', 403: 'FORBIDDEN', 404: 'NOT_FOUND' } as const;

describe('the permission matrix refuses', () => {
  const cells = Object.entries(refusals).flatMap(([who, row]) =>
    Object.entries(row).map(([call, status]) => ({ who: who as Who, call: call as Call, status })),
  );
  it.each(cells)('$call to $who with $status', async ({ who, call, status }) => {
    // Prepare
    const [method, path, body] = calls()[call];

    // Act
    const response = await manage(app, method, path, as(who), body);

    // Assess: refused, and nothing changed (A's organization and application are intact).
    expectError(response, status, codes[status]);
    const org = await manage(app, 'GET', `/organizations/${a.organizationId}`, as('owner'));
    expect(org.body).toMatchObject({ name: 'Acme', usage: { applications: 1, members: 3 } });
    const members = await manage(app, 'GET', `/organizations/${a.organizationId}/members`, as('owner'));
    expect(members.body.items.filter((m: { role: string }) => m.role === 'owner')).toHaveLength(1);
    const keys = await manage(app, 'GET', `/applications/${a.applicationId}/api-keys`, as('owner'));
    expect(keys.body.items.map((key: { revokedAt: null }) => key.revokedAt)).toEqual([null, null]);
    expect((await manage(app, 'GET', '/invitations', as('otherOwner'))).body.items).toEqual([]);
  });

  it('answers an unknown organization, application or key with 404, like a foreign one', async () => {
    for (const path of [
      '/organizations/org_nothing',
      '/applications/app_nothing',
      '/applications/app_nothing/api-keys',
    ]) {
      expectError(await manage(app, 'GET', path, as('owner')), 404, 'NOT_FOUND');
    }
    const foreignKey = (
      await manage(app, 'GET', `/applications/${b.applicationId}/api-keys`, as('otherOwner'))
    ).body.items[0].id;
    // B's key id through A's application: A's owner may revoke A's keys, not B's.
    expectError(
      await manage(app, 'DELETE', `/applications/${a.applicationId}/api-keys/${foreignKey}`, as('owner')),
      404,
      'NOT_FOUND',
    );
    expect(
      await app.request('GET', '/application/by-api-key', { headers: { 'x-api-key': b.publicKey } }),
    ).toMatchObject({
      status: 200,
    });
  });
});

describe('organizations', () => {
  it('lists the caller’s organizations with role, plan and usage, the one of its first sign-in included', async () => {
    // Act
    const list = await manage(app, 'GET', '/organizations', as('member'));

    // Assess
    expect(list.status).toBe(200);
    expect(list.body.page).toEqual({ limit: 2, offset: 0, total: null, hasMore: null });
    // Oldest first; the test clock may give both the same time, so the order is not asserted.
    expect(list.body.items).toHaveLength(2);
    expect(list.body.items).toEqual(
      expect.arrayContaining([
        expect.objectContaining({ name: expect.stringContaining('organization'), role: 'owner' }),
        expect.objectContaining({
          id: a.organizationId,
          role: 'member',
          plan: { name: 'free', applicationLimit: 3 },
          usage: { applications: 1, members: 3 },
        }),
      ]),
    );
  });

  it('renames, and deletes only once it holds no application', async () => {
    // Prepare
    const owned = await createOwnedApplication(app, 'Short Lived');
    const token = { token: owned.owner.token };

    // Act / Assess
    const renamed = await manage(app, 'PATCH', `/organizations/${owned.organizationId}`, token, {
      name: 'Renamed',
    });
    expect(renamed.body).toMatchObject({ id: owned.organizationId, name: 'Renamed' });
    const refused = await manage(app, 'DELETE', `/organizations/${owned.organizationId}`, token);
    expectError(refused, 409, 'ORGANIZATION_NOT_EMPTY');
    expect((await manage(app, 'DELETE', `/applications/${owned.applicationId}`, token)).status).toBe(204);
    expect((await manage(app, 'DELETE', `/organizations/${owned.organizationId}`, token)).status).toBe(204);
    expectError(await manage(app, 'GET', `/organizations/${owned.organizationId}`, token), 404, 'NOT_FOUND');
    const mine = await manage(app, 'GET', '/organizations', token);
    expect(mine.body.items.map((org: { id: string }) => org.id)).not.toContain(owned.organizationId);
  });

  it('keeps an owner: the last owner can neither leave nor be demoted, until another owner exists', async () => {
    // Prepare
    const owned = await createOwnedApplication(app, 'Owners');
    const path = `/organizations/${owned.organizationId}/members`;
    const owner = { token: owned.owner.token };

    // Act / Assess: alone, the owner cannot go.
    expectError(await manage(app, 'DELETE', `${path}/${owned.owner.userId}`, owner), 409, 'LAST_OWNER');
    expectError(
      await manage(app, 'PATCH', `${path}/${owned.owner.userId}`, owner, { role: 'admin' }),
      409,
      'LAST_OWNER',
    );
    // An admin cannot make or remove owners.
    const second = await addSignedInMember(app, owned.owner.token, owned.organizationId, 'admin');
    expectError(
      await manage(app, 'PATCH', `${path}/${second.userId}`, { token: second.token }, { role: 'owner' }),
      403,
      'FORBIDDEN',
    );
    expectError(
      await manage(app, 'DELETE', `${path}/${owned.owner.userId}`, { token: second.token }),
      403,
      'FORBIDDEN',
    );
    // Promoted by the owner, the second owner lets the first leave.
    const promoted = await manage(app, 'PATCH', `${path}/${second.userId}`, owner, { role: 'owner' });
    expect(promoted.body).toMatchObject({ userId: second.userId, role: 'owner' });
    expect((await manage(app, 'DELETE', `${path}/${owned.owner.userId}`, owner)).status).toBe(204);
    expectError(await manage(app, 'GET', `/organizations/${owned.organizationId}`, owner), 404, 'NOT_FOUND');
    const members = await manage(app, 'GET', path, { token: second.token });
    expect(members.body.items).toEqual([expect.objectContaining({ userId: second.userId, role: 'owner' })]);
  });

  it('keeps an owner when the two owners leave at the same time', async () => {
    // Prepare
    const owned = await createOwnedApplication(app, 'Race');
    const second = await addSignedInMember(app, owned.owner.token, owned.organizationId, 'owner');
    const path = `/organizations/${owned.organizationId}/members`;

    // Act
    const answers = await Promise.all([
      manage(app, 'DELETE', `${path}/${owned.owner.userId}`, { token: owned.owner.token }),
      manage(app, 'DELETE', `${path}/${second.userId}`, { token: second.token }),
    ]);

    // Assess: one left, the other is refused (or told to retry); one owner stays.
    expect(answers.filter((answer) => answer.status === 204)).toHaveLength(1);
    expect(answers.map((answer) => answer.status).sort()).toEqual([
      204,
      answers.find((x) => x.status !== 204)?.status,
    ]);
    expect([409, 429]).toContain(answers.find((answer) => answer.status !== 204)?.status);
    const stayer = answers[0].status === 204 ? second : { token: owned.owner.token };
    const members = await manage(app, 'GET', path, stayer);
    expect(members.body.items.filter((m: { role: string }) => m.role === 'owner')).toHaveLength(1);
  });

  it('invites by email: the same answer whether or not the address has an account; only the invitee can accept', async () => {
    // Prepare
    const path = `/organizations/${a.organizationId}/members`;
    const someone = await signIn(app);
    const nobody = newEmail();

    // Act
    const known = await manage(app, 'POST', path, as('admin'), { email: someone.email.toUpperCase() });
    const unknown = await manage(app, 'POST', path, as('admin'), { email: nobody });

    // Assess: both 202 with the same shape; nobody joined yet.
    expect([known.status, unknown.status]).toEqual([202, 202]);
    expect(Object.keys(known.body.invitation).sort()).toEqual(Object.keys(unknown.body.invitation).sort());
    expect(known.body.invitation).toMatchObject({
      email: someone.email,
      role: 'member',
      organizationName: 'Acme',
    });
    const before = await manage(app, 'GET', path, as('owner'));
    expect(before.body.items.map((m: { email: string }) => m.email)).not.toContain(someone.email);
    // Another account cannot accept it; the invitee sees it and accepts.
    expectError(
      await manage(app, 'POST', `/invitations/${a.organizationId}/accept`, as('otherOwner')),
      404,
      'NOT_FOUND',
    );
    const pending = await manage(app, 'GET', '/invitations', { token: someone.token });
    expect(pending.body.items).toEqual([
      expect.objectContaining({ organizationId: a.organizationId, role: 'member' }),
    ]);
    const accepted = await manage(app, 'POST', `/invitations/${a.organizationId}/accept`, {
      token: someone.token,
    });
    expect(accepted.status, accepted.text).toBe(200);
    expect(accepted.body).toMatchObject({
      userId: someone.body.user.id,
      email: someone.email,
      role: 'member',
    });
    expect((await manage(app, 'GET', '/invitations', { token: someone.token })).body.items).toEqual([]);
    expectError(
      await manage(app, 'POST', `/invitations/${a.organizationId}/accept`, { token: someone.token }),
      404,
      'NOT_FOUND',
    );
    // A member may leave on its own.
    expect(
      (await manage(app, 'DELETE', `${path}/${someone.body.user.id}`, { token: someone.token })).status,
    ).toBe(204);
  });

  it('refuses an admin inviting an owner; an invitation expires after 7 days; declining deletes it', async () => {
    // Prepare
    const path = `/organizations/${a.organizationId}/members`;
    const invitee = await signIn(app);
    const week = 7 * 24 * 3600 * 1000;

    // Act / Assess
    expectError(
      await manage(app, 'POST', path, as('admin'), { email: invitee.email, role: 'owner' }),
      403,
      'FORBIDDEN',
    );
    expect(
      (await manage(app, 'POST', path, as('admin'), { email: invitee.email, role: 'admin' })).status,
    ).toBe(202);
    app.clock.advance(week + 1000);
    try {
      // Tokens live 7 days too: a fresh sign-in after the week.
      const later = await signIn(app, invitee.email);
      expect((await manage(app, 'GET', '/invitations', { token: later.token })).body.items).toEqual([]);
      expectError(
        await manage(app, 'POST', `/invitations/${a.organizationId}/accept`, { token: later.token }),
        404,
        'NOT_FOUND',
      );
    } finally {
      app.clock.advance(-(week + 1000));
    }
    expect((await manage(app, 'POST', path, as('owner'), { email: invitee.email })).status).toBe(202);
    expect(
      (await manage(app, 'DELETE', `/invitations/${a.organizationId}`, { token: invitee.token })).status,
    ).toBe(204);
    expect((await manage(app, 'GET', '/invitations', { token: invitee.token })).body.items).toEqual([]);
  });

  it('an invitation of someone already a member answers ALREADY_MEMBER on acceptance', async () => {
    const path = `/organizations/${a.organizationId}/members`;
    expect((await manage(app, 'POST', path, as('owner'), { email: admin.email })).status).toBe(202);
    expectError(
      await manage(app, 'POST', `/invitations/${a.organizationId}/accept`, as('admin')),
      409,
      'ALREADY_MEMBER',
    );
  });
});

describe('memberships written before the management API', () => {
  it('are listed, named and can leave, though they hold only role and createdAt', async () => {
    // Prepare: an organization with a second owner whose membership has the old shape.
    const owned = await createOwnedApplication(app, 'Legacy');
    const second = await addSignedInMember(app, owned.owner.token, owned.organizationId, 'owner');
    const key = keys.member(owned.organizationId, second.userId);
    await app.deps.db.client.send(
      new UpdateCommand({
        TableName: app.deps.db.table,
        Key: { pk: key.pk, sk: key.sk },
        UpdateExpression: 'REMOVE organizationId, userId, email',
      }),
    );

    // Act
    const mine = await manage(app, 'GET', '/organizations', { token: second.token });
    const members = await manage(app, 'GET', `/organizations/${owned.organizationId}/members`, {
      token: second.token,
    });
    const leave = await manage(
      app,
      'DELETE',
      `/organizations/${owned.organizationId}/members/${second.userId}`,
      {
        token: second.token,
      },
    );

    // Assess
    expect(mine.body.items.map((org: { id: string }) => org.id)).toContain(owned.organizationId);
    expect(members.status, members.text).toBe(200);
    expect(members.body.items).toContainEqual(
      expect.objectContaining({ userId: second.userId, email: second.email }),
    );
    expect(leave.status, leave.text).toBe(204);
  });
});

describe('organizations an account may create', () => {
  it('stops at 10 under parallel creates (the first sign-in’s counts), and a deletion gives one back', async () => {
    // Prepare
    const owner = await signIn(app);
    const create = (index: number) =>
      manage(app, 'POST', '/organizations', { token: owner.token }, { name: `Org ${index}` });

    // Act
    const answers = await Promise.all(Array.from({ length: 12 }, (_, index) => create(index)));

    // Assess: with the first sign-in's, never more than 10.
    const created = answers.filter((answer) => answer.status === 201);
    expect(created.length).toBeLessThanOrEqual(9);
    for (const answer of answers.filter((x) => x.status === 403)) {
      expectError(answer, 403, 'ORGANIZATION_LIMIT_REACHED');
      expect(answer.body.error.details).toEqual({ limit: 10 });
    }
    while ((await create(99)).status === 201);
    const mine = await manage(app, 'GET', '/organizations', { token: owner.token });
    expect(mine.body.items).toHaveLength(10);
    expectError(await create(100), 403, 'ORGANIZATION_LIMIT_REACHED');
    const last = mine.body.items.at(-1).id;
    expect((await manage(app, 'DELETE', `/organizations/${last}`, { token: owner.token })).status).toBe(204);
    expect((await create(101)).status).toBe(201);
  });
});

describe('plans, set by an operator', () => {
  /** The operator's change: the `plan` attribute of the organization's item. */
  const setPlan = (organizationId: string, plan: string) =>
    app.deps.db.client.send(
      new UpdateCommand({
        TableName: app.deps.db.table,
        Key: keys.organization(organizationId),
        UpdateExpression: 'SET #plan = :plan',
        ExpressionAttributeNames: { '#plan': 'plan' },
        ExpressionAttributeValues: { ':plan': plan },
      }),
    );

  /** Creates applications one after another until refused (or `most`); answers how many were made. */
  async function fill(token: string, organizationId: string, most: number) {
    let made = 0;
    while (made < most) {
      const answer = await manage(
        app,
        'POST',
        `/application/${organizationId}`,
        { token },
        { name: `More ${made}` },
      );
      if (answer.status !== 201) return { made, refusal: answer };
      made++;
    }
    return { made, refusal: null };
  }

  it('pro allows exactly 25 applications, enterprise more', async () => {
    // Prepare
    const pro = await createOwnedApplication(app, 'Pro');
    await setPlan(pro.organizationId, 'pro');
    const enterprise = await createOwnedApplication(app, 'Enterprise');
    await setPlan(enterprise.organizationId, 'enterprise');

    // Act
    const proFill = await fill(pro.owner.token, pro.organizationId, 30);
    const enterpriseFill = await fill(enterprise.owner.token, enterprise.organizationId, 26);

    // Assess: one application existed already in each.
    expect(proFill.made).toBe(24);
    expectError(proFill.refusal as TestResponse, 403, 'PLAN_LIMIT_REACHED');
    expect(proFill.refusal?.body.error.details).toEqual({ plan: 'pro', limit: 25 });
    expect(enterpriseFill).toEqual({ made: 26, refusal: null });
    const org = await manage(app, 'GET', `/organizations/${enterprise.organizationId}`, {
      token: enterprise.owner.token,
    });
    expect(org.body.plan).toEqual({ name: 'enterprise', applicationLimit: null });
    expect(org.body.usage.applications).toBe(27);
  });

  it('a plan value it does not know is the free plan, logged, never a retry loop', async () => {
    // Prepare: an operator's typo.
    const owned = await createOwnedApplication(app, 'Typo');
    await setPlan(owned.organizationId, 'Pro');

    // Act
    const filled = await fill(owned.owner.token, owned.organizationId, 5);

    // Assess
    expect(filled.made).toBe(2);
    expectError(filled.refusal as TestResponse, 403, 'PLAN_LIMIT_REACHED');
    expect(app.logs.some((line) => line.includes('unknown plan') && line.includes('"Pro"'))).toBe(true);
  });
});

describe('credentials of management calls', () => {
  it('refuses a key with a platform session (401), a cross-site cookie (403), and hides A from B’s end users (404)', async () => {
    // A platform session is no session of the key's application.
    expectError(
      await app.request('GET', `/applications/${a.applicationId}`, {
        headers: { ...bearer(a.owner.token), 'x-api-key': a.publicKey },
      }),
      401,
      'UNAUTHORIZED',
    );
    // The platform session cookie changes state only from a platform origin (CSRF).
    const cookie = `doorcode.session_token=${a.owner.token}`;
    const crossSite = await app.request('PATCH', `/applications/${a.applicationId}`, {
      body: { name: 'Hijacked' },
      headers: { cookie, origin: 'https://evil.example' },
    });
    expectError(crossSite, 403, 'FORBIDDEN');
    const sameSite = await app.request('PATCH', `/applications/${a.applicationId}`, {
      body: { name: 'Acme Notes' },
      headers: { cookie, origin: PLATFORM_ORIGIN },
    });
    expect(sameSite.status, sameSite.text).toBe(200);
    // An end user of B, with B's key, knows nothing of A.
    const bUser = await signIn(app, newEmail(), { 'x-api-key': b.publicKey });
    expectError(
      await manage(app, 'GET', `/applications/${a.applicationId}`, { token: bUser.token }),
      404,
      'NOT_FOUND',
    );
  });
});

describe('applications', () => {
  it('caps the applications of a free organization at 3 under 10 parallel creates', async () => {
    // Prepare
    const owner = await signIn(app);
    const org = await manage(app, 'POST', '/organizations', { token: owner.token }, { name: 'Capped' });

    // Act
    const answers = await Promise.all(
      Array.from({ length: 10 }, (_, index) =>
        manage(app, 'POST', `/application/${org.body.id}`, { token: owner.token }, { name: `App ${index}` }),
      ),
    );

    // Assess: exactly the plan's three, the others 403 naming the plan and its limit (or 429 to retry).
    const statuses = answers.map((answer) => answer.status);
    expect(statuses.filter((status) => status === 201)).toHaveLength(3);
    const over = answers.filter((answer) => answer.status === 403);
    expect(over.length + statuses.filter((status) => status === 429).length).toBe(7);
    for (const answer of over) {
      expectError(answer, 403, 'PLAN_LIMIT_REACHED');
      expect(answer.body.error.details).toEqual({ plan: 'free', limit: 3 });
    }
    const list = await manage(app, 'GET', `/organizations/${org.body.id}/applications`, {
      token: owner.token,
    });
    expect(list.body.items).toHaveLength(3);
    expect(list.body.page).toEqual({ limit: 20, offset: 0, total: 3, hasMore: false });
    const after = await manage(app, 'GET', `/organizations/${org.body.id}`, { token: owner.token });
    expect(after.body.usage.applications).toBe(3);
  });

  it('updates name, logo and branding; the secret key may too, and by-api-key shows them', async () => {
    const path = `/applications/${a.applicationId}`;
    const updated = await manage(app, 'PATCH', path, as('admin'), {
      logoUrl: 'https://cdn.acme.test/logo.png',
      branding: { primaryColor: '#112233' },
    });
    expect(updated.status, updated.text).toBe(200);
    expect(updated.body).toMatchObject({ name: 'Acme Notes', logoUrl: 'https://cdn.acme.test/logo.png' });
    const bySecret = await manage(app, 'PATCH', path, as('secretKey'), { logoUrl: null });
    expect(bySecret.body.logoUrl).toBeNull();
    const shown = await app.request('GET', '/application/by-api-key', {
      headers: { 'x-api-key': a.publicKey },
    });
    expect(shown.body).toEqual({
      id: a.applicationId,
      name: 'Acme Notes',
      logoUrl: null,
      branding: { primaryColor: '#112233' },
    });
  });

  it.each([
    [{ name: 'https://evil.example/login' }, 'name'],
    [{ name: 'Visit acme.com now' }, 'name'],
    [{ name: '' }, 'name'],
    [{ name: 'Fine', logoUrl: 'http://cdn.acme.test/logo.png' }, 'logoUrl'],
    [{ name: 'Fine', branding: { primaryColor: 'red' } }, 'branding.primaryColor'],
    [{ name: 'Fine', extra: true }, 'extra'],
  ])('refuses %j naming %s', async (body, path) => {
    const response = await manage(app, 'POST', `/application/${a.organizationId}`, as('owner'), body);
    expectError(response, 400, 'VALIDATION_ERROR');
    expect(response.body.error.details.issues.map((issue: { path: string }) => issue.path)).toContain(path);
  });

  it('deleting an application stops its keys and its sessions at once, and frees its place in the plan', async () => {
    // Prepare
    const owned = await createOwnedApplication(app, 'Doomed');
    const user = await signIn(app, newEmail(), { 'x-api-key': owned.publicKey });

    // Act
    const deleted = await manage(app, 'DELETE', `/applications/${owned.applicationId}`, {
      token: owned.owner.token,
    });

    // Assess
    expect(deleted.status).toBe(204);
    for (const key of [owned.publicKey, owned.secretKey]) {
      const start = await app.request('POST', '/auth/code/start', {
        body: { email: newEmail() },
        headers: { 'x-api-key': key },
        ip: freshIp(),
      });
      expectError(start, 401, 'UNAUTHORIZED');
    }
    expectError(
      await app.request('GET', '/auth/session', { headers: bearer(user.token) }),
      401,
      'UNAUTHORIZED',
    );
    expectError(
      await manage(app, 'GET', `/applications/${owned.applicationId}`, { token: owned.owner.token }),
      404,
      'NOT_FOUND',
    );
    const org = await manage(app, 'GET', `/organizations/${owned.organizationId}`, {
      token: owned.owner.token,
    });
    expect(org.body.usage.applications).toBe(0);
  });
});

describe('a device code of a deleted application', () => {
  it('is unusable (400 FORBIDDEN) for a first sign-in and an existing user alike, and leaves no session', async () => {
    // Prepare: two approved requests, then the application goes.
    const owned = await createOwnedApplication(app, 'Gone');
    const headers = { 'x-api-key': owned.publicKey };
    const approved = async (email: string) => {
      const start = await app.request('POST', '/auth/code/start', {
        body: { email },
        headers,
        ip: freshIp(),
      });
      const code = await latestCode(email);
      const ok = await app.request('POST', '/auth/code/approve', {
        body: { email, code },
        headers,
        ip: freshIp(),
      });
      expect(ok.status, ok.text).toBe(200);
      return start.body.deviceCode as string;
    };
    const known = newEmail();
    const user = await signIn(app, known, headers);
    const fresh = await approved(newEmail());
    const again = await approved(known);
    expect(
      (await manage(app, 'DELETE', `/applications/${owned.applicationId}`, { token: owned.owner.token }))
        .status,
    ).toBe(204);
    app.clock.advance(6_000);

    // Act
    const poll = (deviceCode: string) =>
      app.request('POST', '/auth/code/poll', { body: { deviceCode }, ip: freshIp() });
    const answers = [await poll(fresh), await poll(again)];

    // Assess
    for (const answer of answers) expectError(answer, 400, 'FORBIDDEN');
    const sessions = await app.deps.db.client.send(
      new QueryCommand({
        TableName: app.deps.db.table,
        KeyConditionExpression: 'pk = :user AND begins_with(sk, :session)',
        ExpressionAttributeValues: { ':user': `USER#${user.body.user.id}`, ':session': 'SESSION#' },
      }),
    );
    expect(sessions.Items).toHaveLength(1);
  });
});

describe('API keys', () => {
  it('revocation takes effect on the next request, and is idempotent', async () => {
    // Prepare
    const owned = await createOwnedApplication(app, 'Revoked');
    const keys = await manage(app, 'GET', `/applications/${owned.applicationId}/api-keys`, {
      token: owned.owner.token,
    });
    const secret = keys.body.items.find((key: { type: string }) => key.type === 'secret');
    const peek = () =>
      app.request('POST', '/auth/code/peek', {
        body: { email: newEmail() },
        headers: { 'x-api-key': owned.secretKey },
        ip: freshIp(),
      });
    expect((await peek()).status).toBe(404);

    // Act
    const revoked = await manage(
      app,
      'DELETE',
      `/applications/${owned.applicationId}/api-keys/${secret.id}`,
      { token: owned.owner.token },
    );

    // Assess
    expect(revoked.status).toBe(200);
    expect(revoked.body).toMatchObject({ id: secret.id, type: 'secret', revokedAt: expect.any(String) });
    expectError(await peek(), 401, 'UNAUTHORIZED');
    const again = await manage(app, 'DELETE', `/applications/${owned.applicationId}/api-keys/${secret.id}`, {
      token: owned.owner.token,
    });
    expect(again.body.revokedAt).toBe(revoked.body.revokedAt);
  });

  it('caps the active keys of an application at 20 under parallel creates; revoked keys do not count', async () => {
    // Prepare: two keys exist already.
    const owned = await createOwnedApplication(app, 'Many Keys');
    const create = () =>
      manage(
        app,
        'POST',
        '/api-keys',
        { token: owned.owner.token },
        { applicationId: owned.applicationId, type: 'secret' },
      );

    // Act
    const answers = await Promise.all(Array.from({ length: 22 }, create));

    // Assess
    const created = answers.filter((answer) => answer.status === 201);
    const refused = answers.filter((answer) => answer.status === 403);
    expect(created.length).toBeLessThanOrEqual(18);
    expect(created.length + refused.length + answers.filter((answer) => answer.status === 429).length).toBe(
      22,
    );
    for (const answer of refused) expectError(answer, 403, 'API_KEY_LIMIT_REACHED');
    const listed = await manage(app, 'GET', `/applications/${owned.applicationId}/api-keys`, {
      token: owned.owner.token,
    });
    expect(listed.body.items).toHaveLength(2 + created.length);
    // Filled to the limit, one revocation makes room for one key.
    while ((await create()).status === 201);
    expectError(await create(), 403, 'API_KEY_LIMIT_REACHED');
    await manage(app, 'DELETE', `/applications/${owned.applicationId}/api-keys/${listed.body.items[0].id}`, {
      token: owned.owner.token,
    });
    expect((await create()).status).toBe(201);
  });
});
