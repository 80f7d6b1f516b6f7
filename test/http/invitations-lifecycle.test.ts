import { UpdateCommand } from '@aws-sdk/lib-dynamodb';
import type { InitializeHandlerArguments } from '@smithy/types';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { keys } from '../../shared/store/keys.ts';
import { startTestApp, type TestApp } from '../support/app.ts';
import { expectError } from '../support/expect-error.ts';
import { newEmail, signIn } from '../support/sign-in.ts';
import { storeWith } from '../support/store.ts';
import { addSignedInMember, createOwnedApplication, manage } from '../support/tenancy.ts';

// docs/api.md, Organizations: an invitation stands only while its inviter could still send it (a
// member of a role that may offer the invitation's role), checked in the accepting transaction, so
// a manager's removal or demotion voids the invitations it sent; the organization's managers list
// its pending invitations and revoke them.

/** A removal and an accept whose transactions the test orders (or leaves to race). */
interface Race {
  /** The invitee's address: its accept transaction deletes `INVITE#<address>`. */
  email: string;
  /** The inviter's user id: its removal transaction deletes `MEMBER#<id>`. */
  inviterId: string;
  order: 'removalFirst' | 'acceptFirst' | 'free';
  removalCommitted: Latch;
  acceptSent: Latch;
  /** Positions in one sequence of the transactions' events (no clock). */
  removalCommittedAt?: number;
  acceptSentAt?: number;
}

class Latch {
  done = false;
  readonly reached: Promise<void>;
  private open!: () => void;
  constructor() {
    this.reached = new Promise((resolve) => {
      this.open = resolve;
    });
  }
  release(): void {
    this.done = true;
    this.open();
  }
}

const races: Race[] = [];
let sequence = 0;

/** A key attribute as the document client gives it, or marshalled. */
const text = (value: unknown): string | undefined =>
  typeof value === 'string' ? value : (value as { S?: string } | undefined)?.S;

/**
 * The app's table, with each race's two transactions held back as the race orders them: the accept
 * sent only once the removal committed, or the removal only once the accept was answered.
 */
const orderedStore = (config: TestApp['deps']['config']) =>
  storeWith(config, 'orderRaces', (next, context) => async (args: InitializeHandlerArguments<object>) => {
    if ((context as { commandName?: string }).commandName !== 'TransactWriteItemsCommand') return next(args);
    const deletes = (
      (args.input as { TransactItems?: Array<{ Delete?: { Key?: Record<string, unknown> } }> })
        .TransactItems ?? []
    )
      .map((item) => item.Delete?.Key)
      .filter((key) => key !== undefined);
    const accept = races.find((race) => deletes.some((key) => text(key.pk) === `INVITE#${race.email}`));
    const removal = races.find((race) =>
      deletes.some((key) => text(key.sk) === keys.member('', race.inviterId).sk),
    );
    if (accept) {
      if (accept.order === 'removalFirst') await accept.removalCommitted.reached;
      accept.acceptSentAt = ++sequence;
      try {
        return await next(args);
      } finally {
        accept.acceptSent.release();
      }
    }
    if (removal) {
      if (removal.order === 'acceptFirst') await removal.acceptSent.reached;
      const answer = await next(args);
      removal.removalCommittedAt = ++sequence;
      removal.removalCommitted.release();
      return answer;
    }
    return next(args);
  });

let app: TestApp;
beforeAll(async () => {
  app = await startTestApp({ overrides: (defaults) => ({ db: orderedStore(defaults.config) }) });
});
afterAll(() => app.close());

const invite = (organizationId: string, token: string, email: string, role: string) =>
  manage(app, 'POST', `/organizations/${organizationId}/members`, { token }, { email, role });
const accept = (organizationId: string, token: string) =>
  manage(app, 'POST', `/invitations/${organizationId}/accept`, { token });
const members = async (organizationId: string, token: string) =>
  (
    (await manage(app, 'GET', `/organizations/${organizationId}/members`, { token })).body.items as Array<{
      userId: string;
      role: string;
    }>
  ).map(({ userId, role }) => ({ userId, role }));
const pendingOf = async (token: string) =>
  ((await manage(app, 'GET', '/invitations', { token })).body.items as Array<{ organizationId: string }>).map(
    (invitation) => invitation.organizationId,
  );
const listed = (organizationId: string, credential: { token?: string; apiKey?: string }) =>
  manage(app, 'GET', `/organizations/${organizationId}/invitations`, credential);
const revoke = (organizationId: string, credential: { token?: string; apiKey?: string }, email: string) =>
  manage(
    app,
    'DELETE',
    `/organizations/${organizationId}/invitations/${encodeURIComponent(email)}`,
    credential,
  );

describe('an invitation stands only while its inviter could still send it', () => {
  it("a removed admin's invitation is void: the accept is 404, the invitee gets no key, the invitation is gone", async () => {
    // Prepare: owner A, admin X; X invites Y as admin; A removes X.
    const owned = await createOwnedApplication(app);
    const x = await addSignedInMember(app, owned.owner.token, owned.organizationId, 'admin');
    const y = await signIn(app);
    expect((await invite(owned.organizationId, x.token, y.email, 'admin')).status).toBe(202);
    const removed = await manage(
      app,
      'DELETE',
      `/organizations/${owned.organizationId}/members/${x.userId}`,
      {
        token: owned.owner.token,
      },
    );
    expect(removed.status, removed.text).toBe(204);

    // Act
    const accepted = await accept(owned.organizationId, y.token);
    const key = await manage(
      app,
      'POST',
      '/api-keys',
      { token: y.token },
      { applicationId: owned.applicationId, type: 'secret' },
    );

    // Assess: answered as no invitation, deleted, and Y holds nothing.
    expectError(accepted, 404, 'NOT_FOUND');
    expectError(key, 404, 'NOT_FOUND');
    expect(await pendingOf(y.token)).toEqual([]);
    expect(await members(owned.organizationId, owned.owner.token)).toEqual([
      { userId: owned.owner.userId, role: 'owner' },
    ]);
  });

  it('an inviter demoted to member voids its invitations, of an admin and of a member alike', async () => {
    // Prepare: X, an admin, invites Y as admin and Z as member; the owner makes X a member.
    const owned = await createOwnedApplication(app);
    const x = await addSignedInMember(app, owned.owner.token, owned.organizationId, 'admin');
    const [y, z] = [await signIn(app), await signIn(app)];
    expect((await invite(owned.organizationId, x.token, y.email, 'admin')).status).toBe(202);
    expect((await invite(owned.organizationId, x.token, z.email, 'member')).status).toBe(202);
    const demoted = await manage(
      app,
      'PATCH',
      `/organizations/${owned.organizationId}/members/${x.userId}`,
      { token: owned.owner.token },
      { role: 'member' },
    );
    expect(demoted.status, demoted.text).toBe(200);

    // Act
    const byY = await accept(owned.organizationId, y.token);
    const byZ = await accept(owned.organizationId, z.token);

    // Assess: a member may send no invitation, so neither stands.
    expectError(byY, 404, 'NOT_FOUND');
    expectError(byZ, 404, 'NOT_FOUND');
    expect(await pendingOf(y.token)).toEqual([]);
    expect(await pendingOf(z.token)).toEqual([]);
    expect(
      (await members(owned.organizationId, owned.owner.token)).map((member) => member.userId).sort(),
    ).toEqual([owned.owner.userId, x.userId].sort());
  });

  it('an admin demoted from owner keeps its admin invitations and loses its owner ones', async () => {
    // Prepare: a second owner O invites Y as owner and Z as admin; the first owner makes O an admin.
    const owned = await createOwnedApplication(app);
    const o = await addSignedInMember(app, owned.owner.token, owned.organizationId, 'owner');
    const [y, z] = [await signIn(app), await signIn(app)];
    expect((await invite(owned.organizationId, o.token, y.email, 'owner')).status).toBe(202);
    expect((await invite(owned.organizationId, o.token, z.email, 'admin')).status).toBe(202);
    const demoted = await manage(
      app,
      'PATCH',
      `/organizations/${owned.organizationId}/members/${o.userId}`,
      { token: owned.owner.token },
      { role: 'admin' },
    );
    expect(demoted.status, demoted.text).toBe(200);

    // Act
    const byY = await accept(owned.organizationId, y.token);
    const byZ = await accept(owned.organizationId, z.token);

    // Assess: an admin may still offer admin, not owner.
    expectError(byY, 404, 'NOT_FOUND');
    expect(byZ.status, byZ.text).toBe(200);
    expect(byZ.body).toMatchObject({ userId: z.body.user.id, role: 'admin' });
  });

  it('an inviter demoted and promoted again, or removed and added again, does not revive what it sent', async () => {
    // Prepare: X invites Y and is demoted, then promoted back; W invites V and is removed, then invited
    // back and accepts. Each then sends a fresh invitation, which stands.
    const owned = await createOwnedApplication(app);
    const org = owned.organizationId;
    const owner = { token: owned.owner.token };
    const x = await addSignedInMember(app, owned.owner.token, org, 'admin');
    const w = await addSignedInMember(app, owned.owner.token, org, 'admin');
    const [y, v, fresh] = [await signIn(app), await signIn(app), await signIn(app)];
    expect((await invite(org, x.token, y.email, 'admin')).status).toBe(202);
    expect((await invite(org, w.token, v.email, 'admin')).status).toBe(202);
    const rank = (userId: string, role: string) =>
      manage(app, 'PATCH', `/organizations/${org}/members/${userId}`, owner, { role });
    app.clock.advance(1000);
    expect((await rank(x.userId, 'member')).status).toBe(200);
    expect((await rank(x.userId, 'admin')).status).toBe(200);
    expect((await manage(app, 'DELETE', `/organizations/${org}/members/${w.userId}`, owner)).status).toBe(
      204,
    );
    expect((await invite(org, owned.owner.token, w.email, 'admin')).status).toBe(202);
    expect((await accept(org, w.token)).status).toBe(200);
    app.clock.advance(1000);
    expect((await invite(org, x.token, fresh.email, 'admin')).status).toBe(202);
    const pending = await manage(app, 'GET', `/organizations/${org}/invitations`, owner);
    expect(pending.body.items.map((item: { email: string }) => item.email)).toEqual([fresh.email]);

    // Act
    const byY = await accept(org, y.token);
    const byV = await accept(org, v.token);
    const byFresh = await accept(org, fresh.token);

    // Assess: what was sent before the loss stays void; what was sent after stands.
    expectError(byY, 404, 'NOT_FOUND');
    expectError(byV, 404, 'NOT_FOUND');
    expect(byFresh.status, byFresh.text).toBe(200);
  });

  it('a membership stored before user ids were (legacy) is checked by its key', async () => {
    // Prepare: the owner's membership item without `userId` and `email`, as a first sign-in wrote it
    // before the management API (shared/tenancy/members.ts). It invites Y and Z as admins and O as
    // owner; O accepts and makes it an admin.
    const owned = await createOwnedApplication(app);
    const { pk, sk } = keys.member(owned.organizationId, owned.owner.userId);
    await app.deps.db.client.send(
      new UpdateCommand({
        TableName: app.deps.db.table,
        Key: { pk, sk },
        UpdateExpression: 'REMOVE userId, email',
      }),
    );
    const [y, z, o] = [await signIn(app), await signIn(app), await signIn(app)];
    for (const [who, role] of [
      [y, 'admin'],
      [z, 'owner'],
      [o, 'owner'],
    ] as const) {
      expect((await invite(owned.organizationId, owned.owner.token, who.email, role)).status).toBe(202);
    }
    expect((await accept(owned.organizationId, y.token)).status).toBe(200);
    expect((await accept(owned.organizationId, o.token)).status).toBe(200);
    const demoted = await manage(
      app,
      'PATCH',
      `/organizations/${owned.organizationId}/members/${owned.owner.userId}`,
      { token: o.token },
      { role: 'admin' },
    );
    expect(demoted.status, demoted.text).toBe(200);

    // Act
    const byZ = await accept(owned.organizationId, z.token);

    // Assess
    expectError(byZ, 404, 'NOT_FOUND');
  });

  it('an inviter who left cannot come back by its own invitation', async () => {
    // Prepare: X, an admin, invites its own address.
    const owned = await createOwnedApplication(app);
    const x = await addSignedInMember(app, owned.owner.token, owned.organizationId, 'admin');
    expect((await invite(owned.organizationId, x.token, x.email, 'admin')).status).toBe(202);
    expectError(await accept(owned.organizationId, x.token), 409, 'ALREADY_MEMBER');
    expect((await invite(owned.organizationId, x.token, x.email, 'admin')).status).toBe(202);
    const left = await manage(app, 'DELETE', `/organizations/${owned.organizationId}/members/${x.userId}`, {
      token: x.token,
    });
    expect(left.status, left.text).toBe(204);

    // Act
    const back = await accept(owned.organizationId, x.token);

    // Assess
    expectError(back, 404, 'NOT_FOUND');
    expect(await pendingOf(x.token)).toEqual([]);
    expect((await members(owned.organizationId, owned.owner.token)).map((member) => member.userId)).toEqual([
      owned.owner.userId,
    ]);
  });

  it('never lets an accept through once the removal of its inviter committed, however they interleave', async () => {
    // Prepare: six organizations of one owner, each with an admin X that invited a Y as admin.
    // Two races send the accept's transaction only after the removal committed, two the removal's
    // only after the accept was answered, two run free.
    const owned = await createOwnedApplication(app);
    const orders = ['removalFirst', 'acceptFirst', 'free', 'removalFirst', 'acceptFirst', 'free'] as const;
    const setups = [];
    for (const [index, order] of orders.entries()) {
      const created = await manage(
        app,
        'POST',
        '/organizations',
        { token: owned.owner.token },
        { name: `Race ${index}` },
      );
      expect(created.status, created.text).toBe(201);
      const organizationId = created.body.id as string;
      const x = await addSignedInMember(app, owned.owner.token, organizationId, 'admin');
      const y = await signIn(app);
      expect((await invite(organizationId, x.token, y.email, 'admin')).status).toBe(202);
      const race: Race = {
        email: y.email,
        inviterId: x.userId,
        order,
        removalCommitted: new Latch(),
        acceptSent: new Latch(),
      };
      setups.push({ organizationId, x, y, race });
    }
    races.push(...setups.map((setup) => setup.race));

    // Act: every removal and accept at once.
    const outcomes = await Promise.all(
      setups.map(async ({ organizationId, x, y, race }) => {
        const [removal, accepted] = await Promise.all([
          manage(app, 'DELETE', `/organizations/${organizationId}/members/${x.userId}`, {
            token: owned.owner.token,
          }).finally(() => race.removalCommitted.release()),
          accept(organizationId, y.token).finally(() => race.acceptSent.release()),
        ]);
        return { organizationId, y, race, removal, accepted };
      }),
    );
    races.length = 0;

    // Assess
    for (const { organizationId, y, race, removal, accepted } of outcomes) {
      expect(removal.status, removal.text).toBe(204);
      expect([200, 404], accepted.text).toContain(accepted.status);
      expect(race.removalCommittedAt, 'the removal committed').toBeDefined();
      // The invariant: an accept sent after the removal committed is refused.
      if ((race.acceptSentAt ?? 0) > (race.removalCommittedAt ?? 0)) expectError(accepted, 404, 'NOT_FOUND');
      if (race.order === 'removalFirst') expectError(accepted, 404, 'NOT_FOUND');
      if (race.order === 'acceptFirst') expect(accepted.status, accepted.text).toBe(200);
      // Whatever the outcome, the invitation is spent, and Y is an admin exactly when it was let in.
      expect(await pendingOf(y.token)).toEqual([]);
      const roles = await members(organizationId, owned.owner.token);
      expect(roles.filter((member) => member.userId === y.body.user.id)).toEqual(
        accepted.status === 200 ? [{ userId: y.body.user.id, role: 'admin' }] : [],
      );
      expect(roles.some((member) => member.userId === race.inviterId)).toBe(false);
    }
  });
});

describe("an organization's pending invitations, for its managers", () => {
  let owned: Awaited<ReturnType<typeof createOwnedApplication>>;
  let admin: Awaited<ReturnType<typeof addSignedInMember>>;
  let member: Awaited<ReturnType<typeof addSignedInMember>>;
  let other: Awaited<ReturnType<typeof createOwnedApplication>>;
  beforeAll(async () => {
    owned = await createOwnedApplication(app);
    admin = await addSignedInMember(app, owned.owner.token, owned.organizationId, 'admin');
    member = await addSignedInMember(app, owned.owner.token, owned.organizationId, 'member');
    other = await createOwnedApplication(app, 'Beta Notes');
  });

  it('lists who invited which address to what, newest first, without expired or void ones', async () => {
    // Prepare: the owner invites P as member, then the admin invites Q as admin.
    const [p, q] = [newEmail(), newEmail()];
    expect((await invite(owned.organizationId, owned.owner.token, p, 'member')).status).toBe(202);
    app.clock.advance(1000);
    expect((await invite(owned.organizationId, admin.token, q, 'admin')).status).toBe(202);
    const ofQ = {
      email: q,
      role: 'admin',
      invitedBy: { userId: admin.userId, email: admin.email },
      createdAt: expect.any(String),
      expiresAt: expect.any(String),
    };
    const ofP = {
      ...ofQ,
      email: p,
      role: 'member',
      invitedBy: { userId: owned.owner.userId, email: owned.owner.email },
    };

    // Act
    const byOwner = await listed(owned.organizationId, { token: owned.owner.token });
    const byAdmin = await listed(owned.organizationId, { token: admin.token });

    // Assess
    expect(byOwner.status, byOwner.text).toBe(200);
    expect(byOwner.body).toEqual({
      items: [ofQ, ofP],
      page: { limit: 2, offset: 0, total: null, hasMore: null },
    });
    const [first] = byOwner.body.items;
    // Expiry is kept in whole seconds (the TTL attribute).
    expect(Date.parse(first.expiresAt)).toBe(
      Math.floor(Date.parse(first.createdAt) / 1000) * 1000 + 7 * 24 * 3600 * 1000,
    );
    expect(byAdmin.body).toEqual(byOwner.body);

    // A week later both have expired (a fresh sign-in: tokens last a week too).
    const week = 7 * 24 * 3600 * 1000;
    app.clock.advance(week + 1000);
    try {
      const later = await signIn(app, owned.owner.email);
      expect((await listed(owned.organizationId, { token: later.token })).body.items).toEqual([]);
    } finally {
      app.clock.advance(-(week + 1000));
    }

    // Once the admin is removed, its invitation is void and no longer listed.
    const removed = await manage(
      app,
      'DELETE',
      `/organizations/${owned.organizationId}/members/${admin.userId}`,
      {
        token: owned.owner.token,
      },
    );
    expect(removed.status).toBe(204);
    expect((await listed(owned.organizationId, { token: owned.owner.token })).body.items).toEqual([ofP]);
    admin = await addSignedInMember(app, owned.owner.token, owned.organizationId, 'admin');
    expect(await revoke(owned.organizationId, { token: owned.owner.token }, p)).toMatchObject({
      status: 204,
    });
  });

  it('refuses a member (403), another tenant (404), a key (403 and 404) and no credential (401)', async () => {
    // Prepare
    const invitee = newEmail();
    expect((await invite(owned.organizationId, owned.owner.token, invitee, 'member')).status).toBe(202);

    // Act / Assess
    expectError(await listed(owned.organizationId, { token: member.token }), 403, 'FORBIDDEN');
    expectError(await listed(owned.organizationId, { token: other.owner.token }), 404, 'NOT_FOUND');
    expectError(await listed(owned.organizationId, { apiKey: owned.secretKey }), 403, 'FORBIDDEN');
    expectError(await listed(owned.organizationId, { apiKey: other.secretKey }), 404, 'NOT_FOUND');
    expectError(await listed(owned.organizationId, {}), 401, 'UNAUTHORIZED');
    expectError(await revoke(owned.organizationId, { token: member.token }, invitee), 403, 'FORBIDDEN');
    expectError(await revoke(owned.organizationId, { token: other.owner.token }, invitee), 404, 'NOT_FOUND');
    expectError(await revoke(owned.organizationId, { apiKey: owned.secretKey }, invitee), 403, 'FORBIDDEN');
    expectError(await revoke(owned.organizationId, {}, invitee), 401, 'UNAUTHORIZED');
    expectError(
      await revoke(owned.organizationId, { token: owned.owner.token }, 'not-an-address'),
      400,
      'VALIDATION_ERROR',
    );
    expectError(await listed('org_nothing', { token: owned.owner.token }), 404, 'NOT_FOUND');

    // Nothing was revoked.
    const still = await listed(owned.organizationId, { token: owned.owner.token });
    expect(still.body.items.map((item: { email: string }) => item.email)).toContain(invitee);
    expect(await revoke(owned.organizationId, { token: owned.owner.token }, invitee)).toMatchObject({
      status: 204,
    });
  });

  it('revokes an invitation: the accept is then 404; revoking none is no error', async () => {
    // Prepare
    const invitee = await signIn(app);
    expect((await invite(owned.organizationId, admin.token, invitee.email, 'admin')).status).toBe(202);

    // Act: by address in any case, as email is everywhere.
    const revoked = await revoke(
      owned.organizationId,
      { token: owned.owner.token },
      invitee.email.toUpperCase(),
    );
    const again = await revoke(owned.organizationId, { token: owned.owner.token }, invitee.email);

    // Assess
    expect(revoked.status, revoked.text).toBe(204);
    expect(again.status, again.text).toBe(204);
    expect(await pendingOf(invitee.token)).toEqual([]);
    const left = await listed(owned.organizationId, { token: owned.owner.token });
    expect(left.body.items.map((item: { email: string }) => item.email)).not.toContain(invitee.email);
    expectError(await accept(owned.organizationId, invitee.token), 404, 'NOT_FOUND');
  });

  it("an admin revokes an admin's or member's invitation, not an owner's", async () => {
    // Prepare
    const [toOwner, toAdmin] = [newEmail(), newEmail()];
    expect((await invite(owned.organizationId, owned.owner.token, toOwner, 'owner')).status).toBe(202);
    expect((await invite(owned.organizationId, owned.owner.token, toAdmin, 'admin')).status).toBe(202);

    // Act
    const refused = await revoke(owned.organizationId, { token: admin.token }, toOwner);
    const allowed = await revoke(owned.organizationId, { token: admin.token }, toAdmin);

    // Assess
    expectError(refused, 403, 'FORBIDDEN');
    expect(allowed.status, allowed.text).toBe(204);
    const left = await listed(owned.organizationId, { token: owned.owner.token });
    const emails = left.body.items.map((item: { email: string }) => item.email);
    expect(emails).toContain(toOwner);
    expect(emails).not.toContain(toAdmin);
    expect((await revoke(owned.organizationId, { token: owned.owner.token }, toOwner)).status).toBe(204);
  });
});
