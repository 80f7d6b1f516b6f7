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

describe('social providers in the configuration (issue 12 item 1)', () => {
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

  it('PATCH that leaves the secret out keeps it; { set: true } keeps it; null removes it', async () => {
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
    const renamed = remember(await patch(owned, { socialProviders: { github: { clientId: 'Iv1.def' } } }));
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
    expect(keptBySet.status, keptBySet.text).toBe(200);
    expect(keptSealed).toBe(sealed);
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

  it('never shows a client secret in an answer or a log line', () => {
    expect(secrets).toBeGreaterThan(0);
    for (let n = 1; n <= secrets; n++) {
      const secret = `GOCSPX-${process.pid}-${n}-owner-client-secret`;
      for (const response of answered) expect(response.text).not.toContain(secret);
      for (const line of app.logs) expect(line).not.toContain(secret);
    }
  });
});
