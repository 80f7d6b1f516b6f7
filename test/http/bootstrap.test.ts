import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../support/app.ts';
import { freshIp } from '../support/http-client.ts';
import { mailTo } from '../support/inbox.ts';
import { bearer, newEmail, signIn } from '../support/sign-in.ts';

let app: TestApp;
beforeAll(async () => {
  app = await startTestApp();
});
afterAll(() => app.close());

describe('the agent bootstrap, from no account to a working application', () => {
  it('signs in, creates an organization, an application and keys; an end user then signs in to it', async () => {
    // 1-3: start without a key, a human reads the code, verify: a platform session.
    const platform = await signIn(app);
    expect(platform.body.session.applicationId).toBeNull();
    const auth = bearer(platform.token);

    // 4: POST /organizations.
    const org = await app.request('POST', '/organizations', {
      body: { name: 'Acme' },
      headers: auth,
      ip: freshIp(),
    });
    expect(org.status, `${org.text} ${app.logs.filter((l) => l.includes('error')).join('\n')}`).toBe(201);
    expect(org.body).toMatchObject({
      name: 'Acme',
      role: 'owner',
      plan: { name: 'free', applicationLimit: 3 },
    });
    expect(org.body.id).toMatch(/^org_/);

    // 5: POST /application/{organizationId}.
    const created = await app.request('POST', `/application/${org.body.id}`, {
      body: { name: 'Acme Notes' },
      headers: auth,
      ip: freshIp(),
    });
    expect(created.status, created.text).toBe(201);
    expect(created.body).toMatchObject({ name: 'Acme Notes', organizationId: org.body.id });
    const applicationId = created.body.id as string;

    // 6: POST /api-keys, public and secret.
    const keyOf = async (type: 'public' | 'secret') => {
      const made = await app.request('POST', '/api-keys', {
        body: { applicationId, type },
        headers: auth,
        ip: freshIp(),
      });
      expect(made.status, `${made.text} ${app.logs.filter((l) => l.includes('unhandled')).join('\n')}`).toBe(
        201,
      );
      return made.body.key as string;
    };
    const publicKey = await keyOf('public');
    const secretKey = await keyOf('secret');
    expect(publicKey).toMatch(/^pu_/);
    expect(secretKey).toMatch(/^sk_/);

    const byKey = await app.request('GET', '/application/by-api-key', {
      headers: { 'x-api-key': publicKey },
    });
    expect(byKey.status, byKey.text).toBe(200);
    expect(byKey.body).toEqual({ id: applicationId, name: 'Acme Notes', logoUrl: null, branding: {} });

    // An end user signs in to the new application with its public key.
    const endUser = await signIn(app, newEmail(), { 'x-api-key': publicKey });
    expect(endUser.body.session.applicationId).toBe(applicationId);

    // The list of keys shows both, never the keys themselves, with the public key's last use.
    const list = await app.request('GET', `/applications/${applicationId}/api-keys`, { headers: auth });
    expect(list.status, list.text).toBe(200);
    expect(list.body.items).toHaveLength(2);
    expect(JSON.stringify(list.body)).not.toContain(publicKey);
    const used = list.body.items.find((item: { type: string }) => item.type === 'public');
    expect(used.lastUsedAt).not.toBeNull();
    expect(used.prefix).toBe(publicKey.slice(0, 7));

    // The secret key gives test automation the code of a synthetic address (docs/security.md, "Secrets and
    // what is stored").
    const configured = await app.request('PATCH', `/applications/${applicationId}/configuration`, {
      body: { authentication: { syntheticEmailDomain: 'bots.acme.test' } },
      headers: { 'x-api-key': secretKey },
    });
    expect(configured.status, configured.text).toBe(200);
    const bot = 'ci-bot@bots.acme.test';
    const started = await app.request('POST', '/auth/code/start', {
      body: { email: bot },
      headers: { 'x-api-key': publicKey },
      ip: freshIp(),
    });
    expect(started.status).toBe(200);
    const peek = await app.request('POST', '/auth/code/peek', {
      body: { email: bot },
      headers: { 'x-api-key': secretKey },
      ip: freshIp(),
    });
    expect(peek.status, peek.text).toBe(200);
    expect(peek.body.code).toMatch(/^[A-Z2-9]{4}-[A-Z2-9]{4}$/);
    // The test address is never mailed; its code signs the bot in.
    expect(await mailTo(bot)).toEqual([]);
    const verified = await app.request('POST', '/auth/code/verify', {
      body: { email: bot, code: peek.body.code },
      headers: { 'x-api-key': publicKey },
      ip: freshIp(),
    });
    expect(verified.status, verified.text).toBe(200);
  });
});
