import { GetCommand, PutCommand, ScanCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { keys } from '../../shared/store/keys.ts';
import { applicationOfResource } from '../../shared/tenancy/configuration.ts';
import { startTestApp, TEST_ISSUER, type TestApp } from '../support/app.ts';
import {
  type ClientMetadataServer,
  metadataEnv,
  startClientMetadataServer,
} from '../support/client-metadata-server.ts';
import { expectError } from '../support/expect-error.ts';
import { freshIp } from '../support/http-client.ts';
import { newEmail, signIn } from '../support/sign-in.ts';
import { addSignedInMember, createOwnedApplication, manage } from '../support/tenancy.ts';

let app: TestApp;
/** The host of the resources' protected resource metadata (RFC 9728), which names this issuer. */
let metadata: ClientMetadataServer;
beforeAll(async () => {
  metadata = await startClientMetadataServer();
  app = await startTestApp({ env: metadataEnv(metadata) });
});
afterAll(async () => {
  await app.close();
  await metadata.close();
});

type Owned = Awaited<ReturnType<typeof createOwnedApplication>>;
type Credential = { token?: string; apiKey?: string };

const pathOf = (owned: Owned) => `/applications/${owned.applicationId}/configuration`;
const read = (owned: Owned, credential: Credential = { token: owned.owner.token }) =>
  manage(app, 'GET', pathOf(owned), credential);
const put = (owned: Owned, body: unknown, credential: Credential = { token: owned.owner.token }) =>
  manage(app, 'PUT', pathOf(owned), credential, body);
const patch = (owned: Owned, body: unknown, credential: Credential = { token: owned.owner.token }) =>
  manage(app, 'PATCH', pathOf(owned), credential, body);

const document = (
  change: Partial<Record<'domain' | 'origin', string | null>> & { resources?: string[] } = {},
) => ({
  authentication: { syntheticEmailDomain: change.domain ?? null },
  oauth: { resources: change.resources ?? [] },
  origin: change.origin ?? null,
  socialProviders: { google: null, github: null, microsoft: null, oidc: null },
  socialReturnUrls: [],
});

/**
 * A resource URI no other test of the file claims, whose metadata names this issuer: registering
 * it needs that proof (docs/oauth.md, "Resources of other servers").
 */
let resourceCount = 0;
const newResource = () => metadata.serveResource(`/api-${++resourceCount}/mcp`, TEST_ISSUER);

/** Every resource item of the table, as `{ resource: applicationId }`. */
async function resourceItems(): Promise<Record<string, string>> {
  const found: Record<string, string> = {};
  let cursor: Record<string, unknown> | undefined;
  do {
    const page = await app.deps.db.client.send(
      new ScanCommand({ TableName: app.deps.db.table, ExclusiveStartKey: cursor }),
    );
    for (const item of page.Items ?? []) {
      if (String(item.pk).startsWith('RESOURCE#'))
        found[item.resource as string] = item.applicationId as string;
    }
    cursor = page.LastEvaluatedKey;
  } while (cursor);
  return found;
}

describe('GET /applications/{applicationId}/configuration', () => {
  it('answers the defaults for a new application', async () => {
    // Prepare
    const owned = await createOwnedApplication(app);

    // Act
    const response = await read(owned);

    // Assess
    expect(response.status, response.text).toBe(200);
    expect(response.body).toEqual(document());
  });
});

describe('PUT /applications/{applicationId}/configuration', () => {
  it('replaces the whole document, in its normal form, and answers it', async () => {
    // Prepare
    const owned = await createOwnedApplication(app);
    await put(owned, document({ domain: 'old.test', resources: [newResource()] }));
    const stored = metadata.serveResource('/Normal-Form', TEST_ISSUER);
    const resource = stored.replace('https://localhost', 'HTTPS://LocalHost');

    // Act
    const response = await put(owned, {
      authentication: { syntheticEmailDomain: 'Bots.Acme.Test' },
      oauth: { resources: [resource] },
      origin: 'https://Notes.Acme.COM:443',
      socialProviders: { google: null, github: null, microsoft: null, oidc: null },
      socialReturnUrls: [],
    });

    // Assess
    expect(response.status, response.text).toBe(200);
    const expected = document({
      domain: 'bots.acme.test',
      resources: [stored],
      origin: 'https://notes.acme.com',
    });
    expect(response.body).toEqual(expected);
    expect((await read(owned)).body).toEqual(expected);
  });

  it.each(['bots.acme.test', 'qa.example', 'x.invalid', 'e2e.localhost'])(
    'takes %s as the synthetic email domain: a name under a test TLD reserved by RFC 2606 / RFC 6761',
    async (domain) => {
      // Prepare
      const owned = await createOwnedApplication(app);

      // Act
      const response = await patch(
        owned,
        { authentication: { syntheticEmailDomain: domain } },
        {
          apiKey: owned.secretKey,
        },
      );

      // Assess
      expect(response.status, response.text).toBe(200);
      expect(response.body.authentication.syntheticEmailDomain).toBe(domain);
    },
  );

  it('gives sign-in its synthetic email domain: peek shows the code of an address under it', async () => {
    // Prepare
    const owned = await createOwnedApplication(app);
    expect((await put(owned, document({ domain: 'bots.peek.test' }))).status).toBe(200);
    const email = newEmail('bots.peek.test');
    const headers = { 'x-api-key': owned.secretKey };
    await app.request('POST', '/auth/code/start', { body: { email }, headers, ip: freshIp() });

    // Act
    const peek = await app.request('POST', '/auth/code/peek', { body: { email }, headers, ip: freshIp() });

    // Assess
    expect(peek.status, peek.text).toBe(200);
    expect(peek.body.code).toMatch(/^[A-Z2-9]{4}-[A-Z2-9]{4}$/);
    const verified = await app.request('POST', '/auth/code/verify', {
      body: { email, code: peek.body.code },
      headers,
      ip: freshIp(),
    });
    expect(verified.status, verified.text).toBe(200);
  });

  it.each([
    ['a missing key', { ...document(), origin: undefined }, 'origin'],
    ['an unknown key', { ...document(), theme: 'dark' }, 'theme'],
    ['an unknown nested key', { ...document(), oauth: { resources: [], scopes: [] } }, 'oauth.scopes'],
    ['an http resource', document({ resources: ['http://api.acme.com/mcp'] }), 'oauth.resources.0'],
    [
      'a resource with a fragment',
      document({ resources: ['https://api.acme.com/mcp#x'] }),
      'oauth.resources.0',
    ],
    ['a relative resource', document({ resources: ['https://a.acme.com', '/mcp'] }), 'oauth.resources.1'],
    [
      'a resource listed twice (once in another spelling)',
      document({ resources: ['https://api.acme.com', 'https://API.acme.com/'] }),
      'oauth.resources.1',
    ],
    [
      'more than 20 resources',
      document({ resources: Array.from({ length: 21 }, (_, n) => `https://api.acme.com/${n}`) }),
      'oauth.resources',
    ],
    ['an origin with a path', document({ origin: 'https://acme.com/app' }), 'origin'],
    ['an http origin', document({ origin: 'http://acme.com' }), 'origin'],
    ['a domain that is none', document({ domain: 'not a domain' }), 'authentication.syntheticEmailDomain'],
    // A real mail domain would let the key peek a real person's code (docs/security.md).
    ['a real mail domain', document({ domain: 'gmail.com' }), 'authentication.syntheticEmailDomain'],
    [
      'a name under example.com',
      document({ domain: 'bots.example.com' }),
      'authentication.syntheticEmailDomain',
    ],
    [
      'a domain ending in test without a dot',
      document({ domain: 'bots.mytest' }),
      'authentication.syntheticEmailDomain',
    ],
    ['a reserved test TLD alone', document({ domain: 'test' }), 'authentication.syntheticEmailDomain'],
  ])('answers 400 naming the key for %s, and changes nothing', async (_case, body, path) => {
    // Prepare
    const owned = await createOwnedApplication(app);
    const before = document({ domain: 'kept.test' });
    await put(owned, before);

    // Act
    const response = await put(owned, body);

    // Assess
    expectError(response, 400, 'VALIDATION_ERROR');
    expect(response.body.error.details.issues.map((issue: { path: string }) => issue.path)).toEqual([path]);
    expect((await read(owned)).body).toEqual(before);
  });
});

describe('an application item written before the nested document', () => {
  it('reads the flat `authentication.syntheticEmailDomain` as the nested key, and the first write replaces it', async () => {
    // Prepare: the item as older code wrote it.
    const owned = await createOwnedApplication(app);
    const key = keys.application(owned.applicationId);
    await app.deps.db.client.send(
      new UpdateCommand({
        TableName: app.deps.db.table,
        Key: key,
        UpdateExpression: 'SET config = :flat',
        ExpressionAttributeValues: { ':flat': { 'authentication.syntheticEmailDomain': 'Legacy.Test' } },
      }),
    );
    const email = newEmail('legacy.test');
    const headers = { 'x-api-key': owned.secretKey };
    await app.request('POST', '/auth/code/start', { body: { email }, headers, ip: freshIp() });

    // Act
    const before = await read(owned);
    const peek = await app.request('POST', '/auth/code/peek', { body: { email }, headers, ip: freshIp() });
    const patched = await patch(owned, { origin: 'https://acme.com' });

    // Assess
    expect(before.body).toEqual(document({ domain: 'legacy.test' }));
    expect(peek.status, peek.text).toBe(200);
    expect(patched.body).toEqual(document({ domain: 'legacy.test', origin: 'https://acme.com' }));
    const { Item } = await app.deps.db.client.send(
      new GetCommand({ TableName: app.deps.db.table, Key: key }),
    );
    expect(Item?.config).toEqual({
      authentication: { syntheticEmailDomain: 'legacy.test' },
      oauth: { resources: [] },
      socialProviders: { google: null, github: null, microsoft: null, oidc: null },
      socialReturnUrls: [],
    });
  });
});

describe('PATCH /applications/{applicationId}/configuration (RFC 7396 merge patch)', () => {
  it('changes only the keys the patch names; arrays are replaced whole', async () => {
    // Prepare
    const owned = await createOwnedApplication(app);
    const [first, second] = [newResource(), newResource()];
    await put(
      owned,
      document({ domain: 'bots.test', resources: [first as string], origin: 'https://acme.com' }),
    );

    // Act
    const response = await manage(
      app,
      'PATCH',
      pathOf(owned),
      { token: owned.owner.token },
      {
        oauth: { resources: [second] },
      },
    );

    // Assess
    expect(response.status, response.text).toBe(200);
    expect(response.body).toEqual(
      document({ domain: 'bots.test', resources: [second as string], origin: 'https://acme.com' }),
    );
    expect(await resourceItems()).toMatchObject({ [second as string]: owned.applicationId });
    expect(Object.keys(await resourceItems())).not.toContain(first);
  });

  it('resets a key given null, and a whole section given null', async () => {
    // Prepare
    const owned = await createOwnedApplication(app);
    const resource = newResource();
    await put(owned, document({ domain: 'bots.test', resources: [resource], origin: 'https://acme.com' }));

    // Act
    const response = await patch(owned, { authentication: { syntheticEmailDomain: null }, oauth: null });

    // Assess
    expect(response.status, response.text).toBe(200);
    expect(response.body).toEqual(document({ origin: 'https://acme.com' }));
    expect(Object.keys(await resourceItems())).not.toContain(resource);
  });

  it.each([
    ['an unknown key', { originn: 'https://acme.com' }, 'originn'],
    [
      'an unknown nested key',
      { authentication: { syntheticDomain: 'bots.test' } },
      'authentication.syntheticDomain',
    ],
    [
      'a wrong resource',
      { oauth: { resources: ['https://ok.acme.com', 'ftp://acme.com'] } },
      'oauth.resources.1',
    ],
    ['a section that is no object', { oauth: ['https://acme.com'] }, 'oauth'],
  ])('answers 400 naming the key for %s', async (_case, body, path) => {
    // Prepare
    const owned = await createOwnedApplication(app);

    // Act
    const response = await patch(owned, body);

    // Assess
    expectError(response, 400, 'VALIDATION_ERROR');
    expect(response.body.error.details.issues.map((issue: { path: string }) => issue.path)).toEqual([path]);
    expect((await read(owned)).body).toEqual(document());
  });

  it('loses no change when patches of different keys run at once', async () => {
    // Prepare
    const owned = await createOwnedApplication(app);
    const resources = Array.from({ length: 3 }, newResource);

    // Act
    const answers = await Promise.all([
      patch(owned, { authentication: { syntheticEmailDomain: 'bots.test' } }),
      patch(owned, { oauth: { resources } }),
      patch(owned, { origin: 'https://notes.acme.com' }),
      patch(owned, { authentication: { syntheticEmailDomain: 'bots.test' } }),
      patch(owned, { oauth: { resources } }),
    ]);

    // Assess
    expect(answers.map((answer) => answer.status)).toEqual([200, 200, 200, 200, 200]);
    expect((await read(owned)).body).toEqual(
      document({ domain: 'bots.test', resources, origin: 'https://notes.acme.com' }),
    );
    const items = await resourceItems();
    for (const resource of resources) expect(items[resource]).toBe(owned.applicationId);
  });
});

describe('OAuth resources name exactly one application', () => {
  it('refuses a resource another application holds with 409 RESOURCE_TAKEN, until it is released', async () => {
    // Prepare
    const [a, b] = [await createOwnedApplication(app), await createOwnedApplication(app)];
    const resource = newResource();
    expect((await patch(a, { oauth: { resources: [resource] } })).status).toBe(200);

    // Act
    const taken = await patch(b, { oauth: { resources: [newResource(), resource] } });
    await patch(a, { oauth: { resources: [] } });
    const free = await patch(b, { oauth: { resources: [resource] } });

    // Assess
    expectError(taken, 409, 'RESOURCE_TAKEN');
    expect(taken.body.error.details).toEqual({ resource });
    expect(free.status, free.text).toBe(200);
    expect(await applicationOfResource(app.deps, resource)).toBe(b.applicationId);
  });

  it("refuses another application's MCP resource on this service, and any other URI on the service's origin", async () => {
    // Prepare
    const [victim, squatter] = [await createOwnedApplication(app), await createOwnedApplication(app)];
    const victimMcp = `${TEST_ISSUER}/mcp/${victim.applicationId}`;
    const onService = [
      victimMcp,
      `${TEST_ISSUER.toUpperCase()}:443/mcp/${victim.applicationId}`,
      `${TEST_ISSUER}/`,
      `${TEST_ISSUER}/mcp`,
      `${TEST_ISSUER}/oauth/token`,
    ];

    // Act
    const squats = await Promise.all(
      onService.map((resource) =>
        patch(squatter, { oauth: { resources: [newResource(), resource] } }, { apiKey: squatter.secretKey }),
      ),
    );
    const own = await patch(victim, { oauth: { resources: [victimMcp] } }, { apiKey: victim.secretKey });

    // Assess
    for (const squat of squats) {
      expectError(squat, 400, 'VALIDATION_ERROR');
      expect(squat.body.error.details.issues.map((issue: { path: string }) => issue.path)).toEqual([
        'oauth.resources.1',
      ]);
    }
    expect((await read(squatter)).body.oauth.resources).toEqual([]);
    expect(own.status, own.text).toBe(200);
    expect(await applicationOfResource(app.deps, victimMcp)).toBe(victim.applicationId);
  });

  it('takes resources elsewhere on loopback, and treats another port of the service host as another server', async () => {
    // Prepare
    const owned = await createOwnedApplication(app);
    const loopback = newResource();
    const otherPort = `${TEST_ISSUER}:8443/mcp`;

    // Act
    const taken = await patch(owned, { oauth: { resources: [loopback] } });
    const proved = await patch(owned, { oauth: { resources: [loopback, otherPort] } });

    // Assess
    expect(taken.status, taken.text).toBe(200);
    expect(await applicationOfResource(app.deps, loopback)).toBe(owned.applicationId);
    // Not the service's origin rule: the port's own metadata decides, and it has none.
    expectError(proved, 400, 'VALIDATION_ERROR');
    expect(proved.body.error.details.issues).toEqual([
      { path: 'oauth.resources.1', message: expect.stringMatching(/could not be fetched/) },
    ]);
  });

  it("names no application for another application's MCP resource claimed before the rule", async () => {
    // Prepare: a squat stored by older code.
    const [victim, squatter] = [await createOwnedApplication(app), await createOwnedApplication(app)];
    const victimMcp = `${TEST_ISSUER}/mcp/${victim.applicationId}`;
    await app.deps.db.client.send(
      new PutCommand({
        TableName: app.deps.db.table,
        Item: {
          ...keys.resource(victimMcp),
          type: 'resource',
          resource: victimMcp,
          applicationId: squatter.applicationId,
        },
      }),
    );

    // Act
    const holder = await applicationOfResource(app.deps, victimMcp);

    // Assess
    expect(holder).toBeNull();
  });

  it('finds the application of a resource in any spelling of it, and none for an unknown one', async () => {
    // Prepare
    const owned = await createOwnedApplication(app);
    // The host's root: stored as `<url>/`, its metadata at /.well-known/oauth-protected-resource.
    metadata.serveResource('/', TEST_ISSUER);
    expect((await patch(owned, { oauth: { resources: [metadata.url] } })).status).toBe(200);

    // Act
    const found = await applicationOfResource(app.deps, metadata.url.toUpperCase());
    const unknown = await applicationOfResource(app.deps, newResource());

    // Assess
    expect(found).toBe(owned.applicationId);
    expect(unknown).toBeNull();
  });

  it('gives exactly one of two applications a resource both claim in 10 parallel PUTs, and leaves no stale item', async () => {
    // Prepare
    const [a, b] = [await createOwnedApplication(app), await createOwnedApplication(app)];
    const contested = newResource();
    const own = { [a.applicationId]: newResource(), [b.applicationId]: newResource() };
    const claim = (owned: Owned) =>
      put(owned, document({ resources: [own[owned.applicationId] as string, contested] }));

    // Act
    const answers = await Promise.all(
      Array.from({ length: 10 }, (_, n) => (n % 2 === 0 ? a : b)).map(async (owned) => {
        const answer = await claim(owned);
        return { applicationId: owned.applicationId, status: answer.status, text: answer.text };
      }),
    );

    // Assess
    const winners = new Set(answers.filter((x) => x.status === 200).map((x) => x.applicationId));
    expect(winners.size).toBe(1);
    const [winner] = [...winners];
    const loser = winner === a.applicationId ? b : a;
    for (const answer of answers) {
      expect(answer.status, answer.text).toBe(answer.applicationId === winner ? 200 : 409);
    }
    expect(await applicationOfResource(app.deps, contested)).toBe(winner);
    expect((await read(loser)).body.oauth.resources).toEqual([]);
    const items = await resourceItems();
    expect(items[contested]).toBe(winner);
    expect(items[own[winner as string] as string]).toBe(winner);
    // The loser's own resource was never claimed: its transaction was cancelled whole.
    expect(items[own[loser.applicationId] as string]).toBeUndefined();
  });

  it('leaves resource items for exactly the resources the configuration lists after parallel PUTs of one application', async () => {
    // Prepare
    const owned = await createOwnedApplication(app);
    const lists = Array.from({ length: 6 }, () => [newResource(), newResource()]);

    // Act
    const answers = await Promise.all(lists.map((resources) => put(owned, document({ resources }))));

    // Assess
    // Each lost race is decided again; one that keeps losing is 429 busy, having written nothing.
    for (const answer of answers) expect([200, 429]).toContain(answer.status);
    const kept = (await read(owned)).body.oauth.resources as string[];
    expect(lists).toContainEqual(kept);
    const items = await resourceItems();
    const held = lists.flat().filter((resource) => items[resource] !== undefined);
    expect(held.sort()).toEqual([...kept].sort());
  });

  it('frees the resources of a deleted application', async () => {
    // Prepare
    const [a, b] = [await createOwnedApplication(app), await createOwnedApplication(app)];
    const resource = newResource();
    await patch(a, { oauth: { resources: [resource] } });

    // Act
    const deleted = await manage(app, 'DELETE', `/applications/${a.applicationId}`, { token: a.owner.token });
    const claimed = await patch(b, { oauth: { resources: [resource] } });

    // Assess
    expect(deleted.status, deleted.text).toBe(204);
    expect(claimed.status, claimed.text).toBe(200);
    expect((await resourceItems())[resource]).toBe(b.applicationId);
  });
});

describe('who may read and write the configuration', () => {
  let owned: Owned;
  beforeAll(async () => {
    owned = await createOwnedApplication(app);
  });

  it('lets a member, an admin and the secret key read it; an admin and the secret key write it', async () => {
    // Prepare
    const member = await addSignedInMember(app, owned.owner.token, owned.organizationId, 'member');
    const admin = await addSignedInMember(app, owned.owner.token, owned.organizationId, 'admin');

    // Act
    const reads = await Promise.all([
      read(owned, { token: member.token }),
      read(owned, { token: admin.token }),
      read(owned, { apiKey: owned.secretKey }),
    ]);
    const byAdmin = await patch(owned, { authentication: { syntheticEmailDomain: 'admin.test' } }, admin);
    const byKey = await patch(
      owned,
      { authentication: { syntheticEmailDomain: 'key.test' } },
      {
        apiKey: owned.secretKey,
      },
    );

    // Assess
    expect(reads.map((response) => response.status)).toEqual([200, 200, 200]);
    expect(byAdmin.status, byAdmin.text).toBe(200);
    expect(byKey.status, byKey.text).toBe(200);
    expect(byKey.body.authentication.syntheticEmailDomain).toBe('key.test');
  });

  it('refuses a member that writes: 403', async () => {
    const member = await addSignedInMember(app, owned.owner.token, owned.organizationId, 'member');
    expectError(await put(owned, document(), { token: member.token }), 403, 'FORBIDDEN');
    expectError(await patch(owned, { origin: null }, { token: member.token }), 403, 'FORBIDDEN');
  });

  it('refuses the public key: 403 to read and to write', async () => {
    const credential = { apiKey: owned.publicKey };
    expectError(await read(owned, credential), 403, 'FORBIDDEN');
    expectError(await put(owned, document(), credential), 403, 'FORBIDDEN');
    expectError(await patch(owned, { origin: null }, credential), 403, 'FORBIDDEN');
  });

  it("refuses an end user's session of the application: 403", async () => {
    const endUser = await signIn(app, newEmail(), { 'x-api-key': owned.publicKey });
    const credential = { token: endUser.token };
    expectError(await read(owned, credential), 403, 'FORBIDDEN');
    expectError(await put(owned, document(), credential), 403, 'FORBIDDEN');
  });

  it("answers 404 to another organization's owner and to another application's secret key", async () => {
    const other = await createOwnedApplication(app);
    for (const credential of [{ token: other.owner.token }, { apiKey: other.secretKey }]) {
      expectError(await read(owned, credential), 404, 'NOT_FOUND');
      expectError(await put(owned, document(), credential), 404, 'NOT_FOUND');
      expectError(await patch(owned, { origin: null }, credential), 404, 'NOT_FOUND');
    }
  });

  it('answers 401 without a credential', async () => {
    expectError(await read(owned, {}), 401, 'UNAUTHORIZED');
    expectError(await put(owned, document(), {}), 401, 'UNAUTHORIZED');
    expectError(await patch(owned, { origin: null }, {}), 401, 'UNAUTHORIZED');
  });
});
