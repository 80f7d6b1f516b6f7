import { GetCommand, PutCommand, QueryCommand } from '@aws-sdk/lib-dynamodb';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../support/app.ts';
import { expectError } from '../support/expect-error.ts';
import { mcpAccessToken, mcpPost, toolCall } from '../support/mcp.ts';
import { bearer, newEmail, signIn } from '../support/sign-in.ts';
import { addSignedInMember, createOwnedApplication, manage } from '../support/tenancy.ts';

// docs/api.md "Audit trail": who changed what, when and from where; filters and a cursor; nothing
// for a refused or no-op request; one entry per committed change under concurrency.

let app: TestApp;
beforeAll(async () => {
  app = await startTestApp();
});
afterAll(() => app.close());

interface Entry {
  id: string;
  action: string;
  at: string;
  actor: { kind: string; userId?: string; email?: string; keyId?: string; prefix?: string };
  target: { type: string; id: string; label: string | null };
  changes: Array<{ path: string; from: unknown; to: unknown }>;
  request: { ip: string; userAgent: string } | null;
}

async function read(path: string, token: string): Promise<{ items: Entry[]; page: Record<string, unknown> }> {
  const listed = await manage(app, 'GET', path, { token });
  expect(listed.status, listed.text).toBe(200);
  return listed.body;
}

describe('GET /organizations/{organizationId}/audit', () => {
  it('names the member who acted, the change before and after, and the request', async () => {
    const owned = await createOwnedApplication(app);
    const path = `/organizations/${owned.organizationId}`;
    const renamed = await manage(app, 'PATCH', path, { token: owned.owner.token }, { name: 'Acme Two' });
    expect(renamed.status, renamed.text).toBe(200);

    const trail = await read(`${path}/audit?action=organization.updated`, owned.owner.token);

    expect(trail.items).toHaveLength(1);
    expect(trail.items[0]).toMatchObject({
      action: 'organization.updated',
      actor: { kind: 'user', userId: owned.owner.userId },
      target: { type: 'organization', id: owned.organizationId, label: 'Acme Two' },
      changes: [{ path: 'name', to: 'Acme Two' }],
      request: { ip: expect.any(String), userAgent: expect.any(String) },
    });
    expect(trail.items[0]?.actor.email).toContain('@');
  });

  it('leaves out, and logs, an entry it cannot read (of a newer version: an action or a value shape): never a 500', async () => {
    // Prepare: a real entry, and two copies of it as another version could write them.
    const owned = await createOwnedApplication(app);
    const path = `/organizations/${owned.organizationId}`;
    await manage(app, 'PATCH', path, { token: owned.owner.token }, { name: 'Acme Three' });
    const stored = await app.deps.db.client.send(
      new QueryCommand({
        TableName: app.deps.db.table,
        KeyConditionExpression: 'pk = :pk',
        ExpressionAttributeValues: { ':pk': `AUDIT#${owned.organizationId}` },
      }),
    );
    const [original] = stored.Items ?? [];
    if (!original) throw new Error('no entry written');
    const copy = (suffix: string, fields: Record<string, unknown>) =>
      app.deps.db.client.send(
        new PutCommand({
          TableName: app.deps.db.table,
          Item: {
            ...original,
            sk: `${String(original.sk)}${suffix}`,
            id: `${String(original.id)}${suffix}`,
            ...fields,
          },
        }),
      );
    await copy('a', {
      action: 'organization.limitsChanged',
      changes: [{ path: 'limits', from: { max: 1 }, to: { max: 2 } }],
    });
    await copy('b', { changes: [{ path: 'name', from: { text: 'x' }, to: { text: 'y' } }] });
    const before = app.logs.length;

    // Act
    const trail = await read(`${path}/audit`, owned.owner.token);

    // Assess: every entry but the two copies, and the original among them.
    const ids = trail.items.map((entry) => entry.id);
    expect([...ids].sort()).toEqual((stored.Items ?? []).map((item) => String(item.id)).sort());
    expect(ids).toContain(original.id);
    expect(app.logs.slice(before).join('\n')).toContain(
      'audit entries of unknown actions or fields left out',
    );
  });

  it('records nothing for a rename to the same name or a refused one', async () => {
    const owned = await createOwnedApplication(app);
    const path = `/organizations/${owned.organizationId}`;
    const member = await addSignedInMember(app, owned.owner.token, owned.organizationId, 'member');
    const current = await manage(app, 'GET', path, { token: owned.owner.token });

    const same = await manage(app, 'PATCH', path, { token: owned.owner.token }, { name: current.body.name });
    const refused = await manage(app, 'PATCH', path, { token: member.token }, { name: 'Taken over' });
    const invalid = await manage(app, 'PATCH', path, { token: owned.owner.token }, { name: '' });

    expect(same.status).toBe(200);
    expectError(refused, 403, 'FORBIDDEN');
    expectError(invalid, 400, 'VALIDATION_ERROR');
    const trail = await read(`${path}/audit?action=organization.updated`, owned.owner.token);
    expect(trail.items).toEqual([]);
  });

  it('records a rename once however often it is sent, and concurrent renames as one chain', async () => {
    const owned = await createOwnedApplication(app);
    const path = `/organizations/${owned.organizationId}`;
    const before = (await manage(app, 'GET', path, { token: owned.owner.token })).body.name as string;
    const rename = (name: string) => manage(app, 'PATCH', path, { token: owned.owner.token }, { name });

    const same = await Promise.all(Array.from({ length: 6 }, () => rename('Same Name')));
    const distinct = await Promise.all(['One', 'Two', 'Three', 'Four', 'Five'].map(rename));

    for (const answer of [...same, ...distinct]) expect([200, 429], answer.text).toContain(answer.status);
    const entries = (await read(`${path}/audit?action=organization.updated&limit=100`, owned.owner.token))
      .items;
    const renamedTo = new Map(entries.map((entry) => [entry.changes[0]?.from, entry.changes[0]?.to]));
    // Each entry starts from the name the one before it left: one path from the first name to the last.
    expect(renamedTo.size).toBe(entries.length);
    const walked: unknown[] = [before];
    while (renamedTo.has(walked.at(-1))) walked.push(renamedTo.get(walked.at(-1)));
    expect(walked).toHaveLength(entries.length + 1);
    expect(walked[1]).toBe('Same Name');
    expect(walked.at(-1)).toBe((await manage(app, 'GET', path, { token: owned.owner.token })).body.name);
  });

  it('is for owners and admins: a member is refused, another tenant sees nothing', async () => {
    const owned = await createOwnedApplication(app);
    const other = await createOwnedApplication(app, 'Other');
    const member = await addSignedInMember(app, owned.owner.token, owned.organizationId, 'member');
    const path = `/organizations/${owned.organizationId}/audit`;

    expectError(await manage(app, 'GET', path, { token: member.token }), 403, 'FORBIDDEN');
    expectError(await manage(app, 'GET', path, { token: other.owner.token }), 404, 'NOT_FOUND');
    expectError(await manage(app, 'GET', path, {}), 401, 'UNAUTHORIZED');
  });
});

describe('GET /applications/{applicationId}/audit', () => {
  it('names a secret key by its id and prefix, never the key', async () => {
    const owned = await createOwnedApplication(app);
    const changed = await manage(
      app,
      'PATCH',
      `/applications/${owned.applicationId}`,
      { apiKey: owned.secretKey },
      { name: 'Renamed by key' },
    );
    expect(changed.status, changed.text).toBe(200);

    const trail = await read(
      `/applications/${owned.applicationId}/audit?action=application.updated`,
      owned.owner.token,
    );

    expect(trail.items).toHaveLength(1);
    expect(trail.items[0]?.actor).toEqual({
      kind: 'key',
      keyId: expect.stringMatching(/^key_/),
      prefix: owned.secretKey.slice(0, 7),
    });
    expect(JSON.stringify(trail.items)).not.toContain(owned.secretKey);
  });

  it('filters by action, actor, target and time, and pages by cursor', async () => {
    const owned = await createOwnedApplication(app);
    const base = `/applications/${owned.applicationId}`;
    app.clock.advance(500);
    const since = new Date(app.clock.now()).toISOString();
    const created: string[] = [];
    for (let n = 0; n < 3; n++) {
      app.clock.advance(1000);
      const key = await manage(
        app,
        'POST',
        '/api-keys',
        { token: owned.owner.token },
        {
          applicationId: owned.applicationId,
          type: 'public',
        },
      );
      expect(key.status, key.text).toBe(201);
      created.push(key.body.id);
    }
    const until = new Date(app.clock.now()).toISOString();
    app.clock.advance(1000);
    const revoked = await manage(app, 'DELETE', `${base}/api-keys/${created[0]}`, {
      token: owned.owner.token,
    });
    expect(revoked.status, revoked.text).toBe(200);
    // Revoking it again changes nothing: no second entry.
    await manage(app, 'DELETE', `${base}/api-keys/${created[0]}`, { token: owned.owner.token });

    const byAction = await read(`${base}/audit?action=apiKey.revoked`, owned.owner.token);
    const byTarget = await read(`${base}/audit?target=${created[0]}`, owned.owner.token);
    const byActor = await read(
      `${base}/audit?actor=${owned.owner.userId}&action=apiKey.created`,
      owned.owner.token,
    );
    const inRange = await read(
      `${base}/audit?action=apiKey.created&since=${encodeURIComponent(since)}&until=${encodeURIComponent(until)}`,
      owned.owner.token,
    );
    const pages: string[] = [];
    let cursor: string | null = null;
    do {
      const query: string = `${base}/audit?action=apiKey.created&limit=2${cursor ? `&cursor=${cursor}` : ''}`;
      const page = await read(query, owned.owner.token);
      pages.push(...page.items.map((entry) => entry.target.id));
      cursor = page.page.nextCursor as string | null;
      expect(page.page.hasMore).toBe(cursor !== null);
    } while (cursor);

    expect(byAction.items.map((entry) => entry.target.id)).toEqual([created[0]]);
    expect(byTarget.items.map((entry) => entry.action)).toEqual(['apiKey.revoked', 'apiKey.created']);
    expect(byActor.items.map((entry) => entry.target.id)).toEqual(expect.arrayContaining(created));
    expect(inRange.items.map((entry) => entry.target.id)).toEqual([...created].reverse());
    // Newest first, every key once (the two made at setup come last).
    expect(pages.slice(0, 3)).toEqual([...created].reverse());
    expect(new Set(pages).size).toBe(pages.length);
  });

  it.each([
    ['a cursor that is not one', 'cursor=bm90LWEtY3Vyc29y'],
    ['since after until', 'since=2030-01-01T00:00:00Z&until=2020-01-01T00:00:00Z'],
    ['offset, which cursors replaced', 'offset=20'],
    ['an unknown action', 'action=user.flew'],
    ['a time without an offset', 'since=2026-11-27T10:00:00'],
    ['a page of 101', 'limit=101'],
    ['a time past the year 9999', 'until=9999-12-31T23:00:00-05:00'],
  ])('refuses %s with 400', async (_, query) => {
    const owned = await createOwnedApplication(app);
    const answer = await manage(app, 'GET', `/applications/${owned.applicationId}/audit?${query}`, {
      token: owned.owner.token,
    });
    expectError(answer, 400, 'VALIDATION_ERROR');
  });

  it('answers a cursor outside a narrower time range with what the range holds, never a 500', async () => {
    const owned = await createOwnedApplication(app);
    const base = `/applications/${owned.applicationId}/audit`;
    const earlier = new Date(app.clock.now()).toISOString();
    app.clock.advance(60_000);
    const later = new Date(app.clock.now() + 1).toISOString();
    await manage(
      app,
      'PATCH',
      `/applications/${owned.applicationId}`,
      { token: owned.owner.token },
      {
        name: 'Later',
      },
    );
    const first = await read(`${base}?limit=1`, owned.owner.token);
    const cursor = first.page.nextCursor as string;

    const newer = await read(
      `${base}?cursor=${cursor}&since=${encodeURIComponent(later)}`,
      owned.owner.token,
    );
    const older = await read(
      `${base}?cursor=${cursor}&until=${encodeURIComponent(earlier)}`,
      owned.owner.token,
    );

    expect(first.items.map((entry) => entry.action)).toEqual(['application.updated']);
    // The cursor is older than the whole range: nothing of it is left.
    expect(newer).toMatchObject({ items: [], page: { hasMore: false, nextCursor: null } });
    // The cursor is newer than the whole range: the range is read from its newest end.
    expect(older.items.map((entry) => entry.action)).toContain('apiKey.created');
  });

  it('records one entry per committed change under concurrent writes', async () => {
    const owned = await createOwnedApplication(app);
    const names = Array.from({ length: 8 }, (_, n) => `Concurrent ${n}`);

    const answers = await Promise.all(
      names.map((name) =>
        manage(app, 'PATCH', `/applications/${owned.applicationId}`, { token: owned.owner.token }, { name }),
      ),
    );

    const committed = answers.filter((answer) => answer.status === 200).length;
    for (const answer of answers) expect([200, 429]).toContain(answer.status);
    expect(committed).toBeGreaterThan(0);
    const trail = await read(
      `/applications/${owned.applicationId}/audit?action=application.updated&limit=100`,
      owned.owner.token,
    );
    expect(trail.items).toHaveLength(committed);
    expect(new Set(trail.items.map((entry) => entry.changes[0]?.to)).size).toBe(committed);
  });
});

describe('auditRetentionDays (AUDIT_RETENTION_DAYS)', () => {
  it('gives each new entry the table TTL N days ahead, and reads leave it out once past', async () => {
    const expiring = await startTestApp({ env: { AUDIT_RETENTION_DAYS: '2' } });
    try {
      const owned = await createOwnedApplication(expiring);
      const path = `/organizations/${owned.organizationId}`;
      const renamed = await manage(
        expiring,
        'PATCH',
        path,
        { token: owned.owner.token },
        { name: 'Kept a while' },
      );
      expect(renamed.status, renamed.text).toBe(200);
      const audit = `${path}/audit?action=organization.updated`;
      const before = await manage(expiring, 'GET', audit, { token: owned.owner.token });
      const [entry] = before.body.items;
      const { Item } = await expiring.deps.db.client.send(
        new GetCommand({
          TableName: expiring.deps.db.table,
          Key: { pk: `AUDIT#${owned.organizationId}`, sk: `ENTRY#${entry.at}#${entry.id}` },
        }),
      );

      expiring.clock.advance(2 * 24 * 3600 * 1000 + 1000);
      const after = await manage(expiring, 'GET', audit, { token: owned.owner.token });

      expect(Item?.expiresAt).toBe(Math.floor(Date.parse(entry.at) / 1000) + 2 * 24 * 3600);
      expect(after.status, after.text).toBe(200);
      expect(after.body.items).toEqual([]);
    } finally {
      await expiring.close();
    }
  });
});

describe('the MCP write tool (auth_revoke_user_sessions)', () => {
  it('records its revocation with the token user, the request, and the OAuth client', async () => {
    const owned = await createOwnedApplication(app);
    const endUser = await signIn(app, newEmail(), { 'x-api-key': owned.publicKey });
    const token = await mcpAccessToken(app, owned.owner.userId, owned.applicationId, [
      'auth:read',
      'auth:write',
    ]);

    const answer = await mcpPost(
      app,
      owned.applicationId,
      { ...bearer(token), 'user-agent': 'agent-cli/1.0' },
      toolCall('auth_revoke_user_sessions', { userId: endUser.body.user.id }),
    );

    expect(answer.status, answer.text).toBe(200);
    const trail = await read(
      `/applications/${owned.applicationId}/audit?action=user.sessionsRevoked`,
      owned.owner.token,
    );
    expect(trail.items).toHaveLength(1);
    expect(trail.items[0]).toMatchObject({
      actor: { kind: 'user', userId: owned.owner.userId },
      target: { type: 'user', id: endUser.body.user.id },
      request: {
        ip: expect.stringMatching(/\d/),
        userAgent: expect.stringMatching(/^agent-cli\/1\.0 \(MCP client /),
      },
    });
  });
});
