import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../support/app.ts';
import { createOwnedApplication, manage } from '../support/tenancy.ts';

let app: TestApp;
beforeAll(async () => {
  app = await startTestApp();
});
afterAll(() => app.close());

type Owned = Awaited<ReturnType<typeof createOwnedApplication>>;
const configuration = (owned: Owned) => `/applications/${owned.applicationId}/configuration`;
const patch = (owned: Owned, body: unknown) =>
  manage(app, 'PATCH', configuration(owned), { token: owned.owner.token }, body);
/**
 * The trail's `socialSignIn.changed` entries, newest first; with `every`, all its entries (the keys'
 * creation and other configuration changes are recorded too). One page: these tests write few.
 */
const trail = async (owned: Owned, every = false) => {
  const filter = every ? '' : '&action=socialSignIn.changed';
  const listed = await manage(app, 'GET', `/applications/${owned.applicationId}/audit?limit=100${filter}`, {
    token: owned.owner.token,
  });
  expect(listed.status, listed.text).toBe(200);
  expect(listed.body.page).toEqual({ limit: 100, hasMore: false, nextCursor: null });
  return listed;
};
const everyEntry = async (owned: Owned) =>
  (await trail(owned, true)).body.items as { id: string; action: string; changes: unknown[] }[];

/** A secret no other test uses, so finding it anywhere means this test leaked it. */
let secrets = 0;
const newSecret = () => `audit-${process.pid}-${++secrets}-owner-client-secret`;

const NOTES = 'https://notes.acme.com/after-sign-in';
const ADMIN = 'https://admin.acme.com/after-sign-in';

/** The owner's first social sign-in setup, and the entry it writes. */
async function configured() {
  const owned = await createOwnedApplication(app);
  const secret = newSecret();
  const first = await patch(owned, {
    socialProviders: { github: { enabled: true, clientId: 'gh-1', clientSecret: secret } },
    socialReturnUrls: [NOTES],
  });
  expect(first.status, first.text).toBe(200);
  return { owned, secret };
}

describe('the audit trail of social sign-in changes', () => {
  it('names who enabled a provider and each setting it changed, the secret only as "new secret"', async () => {
    // Prepare
    const owned = await createOwnedApplication(app);
    const secret = newSecret();

    // Act
    const written = await patch(owned, {
      socialProviders: { github: { enabled: true, clientId: 'gh-1', clientSecret: secret } },
      socialReturnUrls: [NOTES],
    });
    const listed = await trail(owned);

    // Assess
    expect(written.status, written.text).toBe(200);
    expect(listed.body.items).toHaveLength(1);
    const [entry] = listed.body.items;
    expect(entry).toEqual({
      id: expect.stringMatching(/^evt_/),
      action: 'socialSignIn.changed',
      at: expect.any(String),
      organizationId: owned.organizationId,
      applicationId: owned.applicationId,
      actor: { kind: 'user', userId: owned.owner.userId, email: owned.owner.email },
      target: expect.objectContaining({ type: 'configuration', id: owned.applicationId }),
      changes: expect.any(Array),
      // docs/api.md: null only on entries written before requests were kept; not pinned here.
      request: expect.toBeOneOf([null, { ip: expect.any(String), userAgent: expect.any(String) }]),
    });
    expect(entry.changes).toHaveLength(4);
    expect(entry.changes).toEqual(
      expect.arrayContaining([
        { path: 'socialProviders.github.enabled', from: null, to: true },
        { path: 'socialProviders.github.clientId', from: null, to: 'gh-1' },
        { path: 'socialProviders.github.clientSecret', from: null, to: 'new secret' },
        { path: 'socialReturnUrls', from: [], to: [NOTES] },
      ]),
    );
    expect(listed.text).not.toContain(secret);
    expect(listed.text).not.toContain('sealed');
  });

  it('records a replaced secret, a disabled provider, a removed one and a new order of return URLs', async () => {
    // Prepare
    const { owned } = await configured();
    const secret = newSecret();
    app.clock.advance(1000);
    await patch(owned, { socialReturnUrls: [NOTES, ADMIN] });

    // Act: a second apart, so the trail's time order is theirs (the test clock stands still).
    const later = (body: unknown) => {
      app.clock.advance(1000);
      return patch(owned, body);
    };
    const replaced = await later({ socialProviders: { github: { clientSecret: secret } } });
    const disabled = await later({ socialProviders: { github: { enabled: false } } });
    const reordered = await later({ socialReturnUrls: [ADMIN, NOTES] });
    const removed = await later({ socialProviders: { github: null } });
    const listed = await trail(owned);

    // Assess
    for (const response of [replaced, disabled, reordered, removed]) expect(response.status).toBe(200);
    expect(listed.body.items).toHaveLength(6);
    // Newest first.
    expect(listed.body.items.slice(0, 5).map((entry: { changes: unknown }) => entry.changes)).toEqual([
      [
        { path: 'socialProviders.github.enabled', from: false, to: null },
        { path: 'socialProviders.github.clientId', from: 'gh-1', to: null },
        { path: 'socialProviders.github.clientSecret', from: 'set', to: null },
      ],
      [{ path: 'socialReturnUrls', from: [NOTES, ADMIN], to: [ADMIN, NOTES] }],
      [{ path: 'socialProviders.github.enabled', from: true, to: false }],
      [{ path: 'socialProviders.github.clientSecret', from: 'set', to: 'new secret' }],
      [{ path: 'socialReturnUrls', from: [NOTES], to: [NOTES, ADMIN] }],
    ]);
    expect(listed.text).not.toContain(secret);
  });

  it('adds nothing for a write that leaves social sign-in as it was, nor for a refused one', async () => {
    // Prepare
    const { owned } = await configured();
    const before = await everyEntry(owned);

    // Act
    const origin = await patch(owned, { origin: 'https://notes.acme.com' });
    const same = await patch(owned, {
      socialProviders: { github: { enabled: true, clientId: 'gh-1', clientSecret: { set: true } } },
      socialReturnUrls: [NOTES],
    });
    const byKey = await manage(
      app,
      'PATCH',
      configuration(owned),
      { apiKey: owned.secretKey },
      { socialReturnUrls: ['https://attacker.test/codes'] },
    );
    const retargeted = await patch(owned, { socialProviders: { github: { clientId: 'someone-else' } } });
    const invalid = await patch(owned, { socialReturnUrls: ['http://notes.acme.com/plain-http'] });
    const listed = await trail(owned);
    const after = await everyEntry(owned);

    // Assess
    expect([origin.status, same.status, byKey.status, retargeted.status, invalid.status]).toEqual([
      200, 200, 403, 400, 400,
    ]);
    expect(listed.body.items).toHaveLength(1);
    // Of all five writes, only the origin's is recorded, as a configuration change: nothing else.
    const added = after.filter((entry) => !before.some((earlier) => earlier.id === entry.id));
    expect(after).toHaveLength(before.length + 1);
    expect(added).toEqual([
      expect.objectContaining({
        action: 'configuration.changed',
        changes: [{ path: 'origin', from: null, to: 'https://notes.acme.com' }],
      }),
    ]);
  });

  it('PUT of the document as read adds nothing; a new OpenID Connect issuer with its secret is recorded', async () => {
    // Prepare
    const { owned } = await configured();
    const oidc = {
      enabled: true,
      clientId: 'notes',
      issuer: 'https://id.acme.com',
      clientSecret: newSecret(),
    };
    app.clock.advance(1000);
    expect((await patch(owned, { socialProviders: { oidc } })).status).toBe(200);
    const asRead = (await manage(app, 'GET', configuration(owned), { token: owned.owner.token })).body;
    const put = (body: unknown) =>
      manage(app, 'PUT', configuration(owned), { token: owned.owner.token }, body);
    const secret = newSecret();
    const before = await everyEntry(owned);

    // Act
    app.clock.advance(1000);
    const same = await put(asRead);
    const afterSame = await everyEntry(owned);
    app.clock.advance(1000);
    const moved = await put({
      ...asRead,
      socialProviders: {
        ...asRead.socialProviders,
        oidc: { ...asRead.socialProviders.oidc, issuer: 'https://login.acme.com', clientSecret: secret },
      },
    });
    const listed = await trail(owned);

    // Assess
    expect([same.status, moved.status]).toEqual([200, 200]);
    expect(afterSame).toEqual(before);
    expect(listed.body.items).toHaveLength(3);
    // The issuer as the configuration stores it (WHATWG form: an empty path is '/').
    expect(listed.body.items[0].changes).toHaveLength(2);
    expect(listed.body.items[0].changes).toEqual(
      expect.arrayContaining([
        { path: 'socialProviders.oidc.issuer', from: 'https://id.acme.com/', to: 'https://login.acme.com/' },
        { path: 'socialProviders.oidc.clientSecret', from: 'set', to: 'new secret' },
      ]),
    );
    expect(listed.text).not.toContain(secret);
  });

  it('writes exactly one entry for each change that commits, under concurrent writes', async () => {
    // Prepare
    const { owned } = await configured();
    const urls = Array.from({ length: 8 }, (_, i) => `https://app${i}.acme.com/after-sign-in`);
    const before = await everyEntry(owned);

    // Act
    const answers = await Promise.all(urls.map((url) => patch(owned, { socialReturnUrls: [url] })));
    const listed = await trail(owned);
    const after = await everyEntry(owned);

    // Assess
    const committed = answers.filter((answer) => answer.status === 200);
    expect(committed.length).toBeGreaterThan(0);
    for (const answer of answers) expect([200, 429]).toContain(answer.status);
    expect(listed.body.items).toHaveLength(1 + committed.length);
    // And no entry of another action: the trail grew by the committed writes' entries alone.
    expect(after).toHaveLength(before.length + committed.length);
    // Each entry goes from the list the one before it left to its own: one chain without a gap or
    // a fork, from the first setup's list (the entries share one time: the test clock stands still).
    const entries = (listed.body.items as { changes: { from: string[]; to: string[] }[] }[]).map(
      (entry) => entry.changes[0],
    );
    let list: string[] = [NOTES];
    for (let step = 0; step < committed.length; step++) {
      const next = entries.filter((change) => JSON.stringify(change?.from) === JSON.stringify(list));
      expect(next, `after ${JSON.stringify(list)}`).toHaveLength(1);
      list = next[0]?.to ?? [];
    }
    const final = await manage(app, 'GET', configuration(owned), { token: owned.owner.token });
    expect(final.body.socialReturnUrls).toEqual(list);
  });
});
