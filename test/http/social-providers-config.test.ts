import { GetCommand } from '@aws-sdk/lib-dynamodb';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { keys } from '../../shared/store/keys.ts';
import { startTestApp, type TestApp } from '../support/app.ts';
import { expectError } from '../support/expect-error.ts';
import type { TestResponse } from '../support/http-client.ts';
import { createOwnedApplication, manage } from '../support/tenancy.ts';

let app: TestApp;
beforeAll(async () => {
  app = await startTestApp();
});
afterAll(() => app.close());

type Owned = Awaited<ReturnType<typeof createOwnedApplication>>;
const pathOf = (owned: Owned) => `/applications/${owned.applicationId}/configuration`;
const read = (owned: Owned) => manage(app, 'GET', pathOf(owned), { token: owned.owner.token });
const put = (owned: Owned, body: unknown) =>
  manage(app, 'PUT', pathOf(owned), { token: owned.owner.token }, body);
const patch = (owned: Owned, body: unknown) =>
  manage(app, 'PATCH', pathOf(owned), { token: owned.owner.token }, body);
const patchByKey = (owned: Owned, body: unknown) =>
  manage(app, 'PATCH', pathOf(owned), { apiKey: owned.secretKey }, body);

/** A secret no other test uses, so finding it anywhere means this test leaked it. */
let secrets = 0;
const newSecret = () => `GOCSPX-${process.pid}-${++secrets}-owner-client-secret`;

const none = { google: null, github: null, microsoft: null, oidc: null };
const base = { authentication: { syntheticEmailDomain: null }, oauth: { resources: [] }, origin: null };

async function storedConfig(owned: Owned) {
  const { Item } = await app.deps.db.client.send(
    new GetCommand({ TableName: app.deps.db.table, Key: keys.application(owned.applicationId) }),
  );
  return Item?.config as {
    socialProviders: Record<string, { clientSecret: { sealed: string } | null } | null>;
  };
}

const answered: TestResponse[] = [];
const remember = (response: TestResponse) => {
  answered.push(response);
  return response;
};

describe('social providers in the configuration', () => {
  it('lets only a signed-in owner or admin change social sign-in: the secret key gets 403 and changes nothing', async () => {
    // Prepare
    const owned = await createOwnedApplication(app);
    const configured = await patch(owned, {
      socialProviders: { github: { enabled: true, clientId: 'gh-1', clientSecret: newSecret() } },
      socialReturnUrls: ['https://notes.acme.com/after-sign-in'],
    });
    expect(configured.status, configured.text).toBe(200);
    const before = await read(owned);

    // Act
    const issuer = await patchByKey(owned, {
      socialProviders: {
        oidc: {
          enabled: true,
          clientId: 'mine',
          issuer: 'https://id.attacker.test',
          clientSecret: newSecret(),
        },
      },
    });
    const returnUrl = await patchByKey(owned, { socialReturnUrls: ['https://attacker.test/codes'] });
    const disable = await patchByKey(owned, { socialProviders: { github: { enabled: false } } });
    const origin = await patchByKey(owned, { origin: 'https://notes.acme.com' });
    const asRead = await manage(
      app,
      'PUT',
      pathOf(owned),
      { apiKey: owned.secretKey },
      {
        ...(await read(owned)).body,
      },
    );

    // Assess
    for (const refused of [issuer, returnUrl, disable]) {
      expect(refused.status, refused.text).toBe(403);
      expect(refused.body.error.code).toBe('FORBIDDEN');
      expect(refused.body.error.message).toMatch(
        /Only an owner or admin, signed in, may change social sign-in/,
      );
    }
    expect(origin.status, origin.text).toBe(200);
    expect(asRead.status, asRead.text).toBe(200);
    const after = (await read(owned)).body;
    expect(after.socialProviders).toEqual(before.body.socialProviders);
    expect(after.socialReturnUrls).toEqual(before.body.socialReturnUrls);
  });

  it('PUT seals the client secret: answers and reads show only { set: true }, the item holds only the sealed form', async () => {
    // Prepare
    const owned = await createOwnedApplication(app);
    const secret = newSecret();

    // Act
    const response = remember(
      await put(owned, {
        ...base,
        socialProviders: {
          ...none,
          google: { enabled: true, clientId: 'g-client.apps.googleusercontent.com', clientSecret: secret },
        },
        socialReturnUrls: ['https://notes.acme.com/after-sign-in'],
      }),
    );
    const got = remember(await read(owned));

    // Assess
    expect(response.status, response.text).toBe(200);
    const expected = {
      ...none,
      google: { enabled: true, clientId: 'g-client.apps.googleusercontent.com', clientSecret: { set: true } },
    };
    expect(response.body.socialProviders).toEqual(expected);
    expect(got.body.socialProviders).toEqual(expected);
    expect(got.body.socialReturnUrls).toEqual(['https://notes.acme.com/after-sign-in']);
    const stored = await storedConfig(owned);
    expect(JSON.stringify(stored)).not.toContain(secret);
    const sealed = stored.socialProviders.google?.clientSecret?.sealed ?? '';
    expect(sealed).toMatch(/^local\.v1\./);
    expect(response.text).not.toContain(sealed);
    expect(got.text).not.toContain(sealed);
    await expect(app.deps.sealer.open(owned.applicationId, sealed)).resolves.toBe(secret);
    await expect(app.deps.sealer.open('app_another', sealed)).rejects.toThrow();
  });

  it('PATCH that gives a new client id with a new secret replaces it; leaving the secret out keeps it; { set: true } keeps it; null removes it', async () => {
    // Prepare
    const owned = await createOwnedApplication(app);
    const secret = newSecret();
    remember(
      await patch(owned, {
        socialProviders: { github: { enabled: true, clientId: 'Iv1.abc', clientSecret: secret } },
      }),
    );
    const sealed = (await storedConfig(owned)).socialProviders.github?.clientSecret?.sealed;

    // Act
    const renamed = remember(
      await patch(owned, { socialProviders: { github: { clientId: 'Iv1.def', clientSecret: newSecret() } } }),
    );
    const renamedSealed = (await storedConfig(owned)).socialProviders.github?.clientSecret?.sealed;
    const keptByLeavingOut = remember(await patch(owned, { socialProviders: { github: { enabled: true } } }));
    const keptOutSealed = (await storedConfig(owned)).socialProviders.github?.clientSecret?.sealed;
    const keptBySet = remember(
      await patch(owned, { socialProviders: { github: { clientSecret: { set: true } } } }),
    );
    const keptSealed = (await storedConfig(owned)).socialProviders.github?.clientSecret?.sealed;
    const removedWhileEnabled = remember(
      await patch(owned, { socialProviders: { github: { clientSecret: null } } }),
    );
    const removed = remember(
      await patch(owned, { socialProviders: { github: { enabled: false, clientSecret: null } } }),
    );

    // Assess
    expect(renamed.status, renamed.text).toBe(200);
    expect(renamed.body.socialProviders.github).toEqual({
      enabled: true,
      clientId: 'Iv1.def',
      clientSecret: { set: true },
    });
    expect(renamedSealed).not.toBe(sealed);
    expect(keptByLeavingOut.status, keptByLeavingOut.text).toBe(200);
    expect(keptOutSealed).toBe(renamedSealed);
    expect(keptBySet.status, keptBySet.text).toBe(200);
    expect(keptSealed).toBe(renamedSealed);
    expectError(removedWhileEnabled, 400, 'VALIDATION_ERROR');
    expect(
      removedWhileEnabled.body.error.details.issues.map((issue: { path: string }) => issue.path),
    ).toEqual(['socialProviders.github.clientSecret']);
    expect(removed.status, removed.text).toBe(200);
    expect(removed.body.socialProviders.github).toEqual({
      enabled: false,
      clientId: 'Iv1.def',
      clientSecret: { set: false },
    });
    expect((await storedConfig(owned)).socialProviders.github?.clientSecret).toBeNull();
  });

  it('PUT of the document as read keeps the secret; { set: false } removes it; a new plaintext replaces it', async () => {
    // Prepare
    const owned = await createOwnedApplication(app);
    const first = newSecret();
    const second = newSecret();
    remember(
      await patch(owned, {
        socialProviders: { microsoft: { enabled: false, clientId: 'entra-client', clientSecret: first } },
      }),
    );
    const sealed = (await storedConfig(owned)).socialProviders.microsoft?.clientSecret?.sealed ?? '';

    // Act
    const asRead = remember(await read(owned));
    const putBack = remember(await put(owned, asRead.body));
    const keptSealed = (await storedConfig(owned)).socialProviders.microsoft?.clientSecret?.sealed;
    const replaced = remember(
      await put(owned, {
        ...asRead.body,
        socialProviders: {
          ...none,
          microsoft: { enabled: true, clientId: 'entra-client', clientSecret: second },
        },
      }),
    );
    const replacedSealed = (await storedConfig(owned)).socialProviders.microsoft?.clientSecret?.sealed ?? '';
    const unset = remember(
      await put(owned, {
        ...asRead.body,
        socialProviders: {
          ...none,
          microsoft: { enabled: false, clientId: 'entra-client', clientSecret: { set: false } },
        },
      }),
    );

    // Assess
    expect(putBack.status, putBack.text).toBe(200);
    expect(keptSealed).toBe(sealed);
    expect(replaced.status, replaced.text).toBe(200);
    await expect(app.deps.sealer.open(owned.applicationId, replacedSealed)).resolves.toBe(second);
    expect(unset.body.socialProviders.microsoft.clientSecret).toEqual({ set: false });
    expect((await storedConfig(owned)).socialProviders.microsoft?.clientSecret).toBeNull();
  });

  it('takes a generic OpenID Connect provider by its https issuer', async () => {
    const owned = await createOwnedApplication(app);
    const response = remember(
      await patch(owned, {
        socialProviders: {
          oidc: {
            enabled: true,
            clientId: 'doorcode',
            issuer: 'https://id.acme.com/realms/main',
            clientSecret: newSecret(),
          },
        },
      }),
    );
    expect(response.status, response.text).toBe(200);
    expect(response.body.socialProviders.oidc).toEqual({
      enabled: true,
      clientId: 'doorcode',
      issuer: 'https://id.acme.com/realms/main',
      clientSecret: { set: true },
    });
  });

  const retargetMessage = 'changing the client id or issuer needs the client secret again';
  const expectRetargetRefused = (response: TestResponse, provider: string) => {
    expectError(response, 400, 'VALIDATION_ERROR');
    expect(response.body.error.details.issues).toEqual([
      { path: `socialProviders.${provider}.clientSecret`, message: retargetMessage },
    ]);
  };

  it.each([
    ['google', 'the secret left out', undefined],
    ['microsoft', '{ set: true }', { set: true }],
  ])(
    'PUT refuses a new %s client id that keeps the stored secret (%s); the secret given again is accepted',
    async (provider, _, kept) => {
      // Prepare
      const owned = await createOwnedApplication(app);
      const given = (clientId: string, clientSecret: unknown) => ({
        ...base,
        socialProviders: { ...none, [provider]: { enabled: true, clientId, clientSecret } },
        socialReturnUrls: [],
      });
      remember(await put(owned, given('owner-client', newSecret())));
      const sealed = (await storedConfig(owned)).socialProviders[provider]?.clientSecret?.sealed;

      // Act
      const retargeted = remember(await put(owned, given('attacker-client', kept)));
      const stored = (await storedConfig(owned)).socialProviders[provider];
      const again = remember(await put(owned, given('attacker-client', newSecret())));

      // Assess
      expectRetargetRefused(retargeted, provider);
      expect(stored).toMatchObject({ clientId: 'owner-client', clientSecret: { sealed } });
      expect(again.status, again.text).toBe(200);
      expect(again.body.socialProviders[provider]).toEqual({
        enabled: true,
        clientId: 'attacker-client',
        clientSecret: { set: true },
      });
    },
  );

  it('PATCH refuses a new client id or issuer that keeps the stored secret; the secret given again is accepted', async () => {
    // Prepare
    const owned = await createOwnedApplication(app);
    remember(
      await patch(owned, {
        socialProviders: {
          google: { enabled: false, clientId: 'owner-client', clientSecret: newSecret() },
          oidc: {
            enabled: true,
            clientId: 'doorcode',
            issuer: 'https://id.acme.com/realms/main',
            clientSecret: newSecret(),
          },
        },
      }),
    );

    // Act
    const clientId = remember(await patch(owned, { socialProviders: { google: { clientId: 'other' } } }));
    const clientIdBySet = remember(
      await patch(owned, { socialProviders: { google: { clientId: 'other', clientSecret: { set: true } } } }),
    );
    const issuer = remember(
      await patch(owned, { socialProviders: { oidc: { issuer: 'https://id.attacker.example/' } } }),
    );
    const issuerByPut = remember(
      await put(owned, {
        ...base,
        socialProviders: {
          ...none,
          oidc: {
            enabled: true,
            clientId: 'doorcode',
            issuer: 'https://id.attacker.example/',
            clientSecret: { set: true },
          },
        },
        socialReturnUrls: [],
      }),
    );
    const unchanged = (await storedConfig(owned)).socialProviders;
    const issuerAgain = remember(
      await patch(owned, {
        socialProviders: { oidc: { issuer: 'https://id.acme.com/other', clientSecret: newSecret() } },
      }),
    );
    const clientIdAgain = remember(
      await patch(owned, { socialProviders: { google: { clientId: 'other', clientSecret: newSecret() } } }),
    );

    // Assess
    expectRetargetRefused(clientId, 'google');
    expectRetargetRefused(clientIdBySet, 'google');
    expectRetargetRefused(issuer, 'oidc');
    expectRetargetRefused(issuerByPut, 'oidc');
    expect(unchanged.google).toMatchObject({ clientId: 'owner-client' });
    expect(unchanged.oidc).toMatchObject({ issuer: 'https://id.acme.com/realms/main' });
    expect(issuerAgain.status, issuerAgain.text).toBe(200);
    expect(issuerAgain.body.socialProviders.oidc.issuer).toBe('https://id.acme.com/other');
    expect(clientIdAgain.status, clientIdAgain.text).toBe(200);
    expect(clientIdAgain.body.socialProviders.google.clientId).toBe('other');
  });

  it('takes an issuer on a public IP address', async () => {
    const owned = await createOwnedApplication(app);
    const response = remember(
      await patch(owned, {
        socialProviders: { oidc: { enabled: false, clientId: 'c', issuer: 'https://8.8.8.8/' } },
      }),
    );
    expect(response.status, response.text).toBe(200);
  });

  it.each([
    ['loopback', 'https://127.0.0.1/'],
    ['loopback spelled in hex', 'https://0x7f000001/'],
    ['IPv6 loopback', 'https://[::1]:8443/'],
    ['the metadata service', 'https://169.254.169.254/latest'],
    ['a private address', 'https://10.0.0.7/realms/main'],
    ['an IPv4-mapped private address', 'https://[::ffff:192.168.1.1]/'],
  ])('refuses an issuer on %s', async (_, issuer) => {
    const owned = await createOwnedApplication(app);
    const response = remember(
      await patch(owned, { socialProviders: { oidc: { enabled: false, clientId: 'c', issuer } } }),
    );
    expectError(response, 400, 'VALIDATION_ERROR');
    expect(response.body.error.details.issues).toEqual([
      { path: 'socialProviders.oidc.issuer', message: 'an issuer is not on a special-use IP address' },
    ]);
  });

  it.each([
    [
      'an enabled provider without a secret',
      { socialProviders: { google: { enabled: true, clientId: 'g' } } },
      'socialProviders.google.clientSecret',
    ],
    [
      'an http issuer',
      { socialProviders: { oidc: { enabled: false, clientId: 'c', issuer: 'http://id.acme.com' } } },
      'socialProviders.oidc.issuer',
    ],
    [
      'an unknown provider',
      { socialProviders: { facebook: { enabled: false, clientId: 'c' } } },
      'socialProviders.facebook',
    ],
    [
      'an empty secret',
      { socialProviders: { google: { enabled: false, clientId: 'g', clientSecret: '' } } },
      'socialProviders.google.clientSecret',
    ],
    ['an http return URL', { socialReturnUrls: ['http://notes.acme.com/'] }, 'socialReturnUrls.0'],
    [
      'a return URL listed twice',
      { socialReturnUrls: ['https://a.acme.com/x', 'https://A.acme.com:443/x'] },
      'socialReturnUrls.1',
    ],
  ])('refuses %s with a 400 naming the key', async (_, body, path) => {
    const owned = await createOwnedApplication(app);
    const response = remember(await patch(owned, body));
    expectError(response, 400, 'VALIDATION_ERROR');
    expect(response.body.error.details.issues.map((issue: { path: string }) => issue.path)).toContain(path);
  });

  it('keeps the secret of a refused write out of the answer and every log line of its request', async () => {
    // Prepare
    const owned = await createOwnedApplication(app);
    const secret = newSecret();
    const logsBefore = app.logs.length;

    // Act
    const refused = remember(
      await patch(owned, {
        socialProviders: {
          oidc: { enabled: true, clientId: 'c', issuer: 'https://169.254.169.254/', clientSecret: secret },
        },
        socialReturnUrls: ['http://notes.acme.com/'],
      }),
    );
    const lines = app.logs.slice(logsBefore);

    // Assess
    expectError(refused, 400, 'VALIDATION_ERROR');
    expect(refused.text).not.toContain(secret);
    const requestId = refused.headers['x-request-id'];
    const ofRequest = lines.filter((line) => line.includes(String(requestId)));
    expect(ofRequest.map((line) => JSON.parse(line))).toContainEqual(
      expect.objectContaining({ message: 'request', status: 400 }),
    );
    for (const line of lines) expect(line).not.toContain(secret);
    expect((await storedConfig(owned)).socialProviders?.oidc ?? null).toBeNull();
  });

  it('never shows a client secret in an answer or a log line', () => {
    expect(secrets).toBeGreaterThan(0);
    for (let n = 1; n <= secrets; n++) {
      const secret = `GOCSPX-${process.pid}-${n}-owner-client-secret`;
      for (const response of answered) expect(response.text).not.toContain(secret);
      for (const line of app.logs) expect(line).not.toContain(secret);
    }
  });
});
