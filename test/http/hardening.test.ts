import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mailboxOf } from '../../shared/identity/email.ts';
import { type Mailer, MailUnavailableError } from '../../shared/mail/mailer.ts';
import { PLATFORM_ORIGIN, startTestApp, type TestApp } from '../support/app.ts';
import { freshIp } from '../support/http-client.ts';
import { bearer, newEmail, signIn } from '../support/sign-in.ts';
import { createTestApplication, revokeApiKey, startSynthetic } from '../support/tenancy.ts';

let app: TestApp;
let mailDown = false;
beforeAll(async () => {
  // The real SES mailer (pointed at the emulator), unless a test takes the mail down.
  const switchable = (real: Mailer): Mailer => ({
    send: async (message) => {
      if (mailDown) throw new MailUnavailableError('down');
      await real.send(message);
    },
    isSuppressed: (address) => real.isSuppressed(address),
  });
  app = await startTestApp({ overrides: (defaults) => ({ mailer: switchable(defaults.mailer) }) });
});
afterAll(() => app.close());

const cookieOf = (setCookie: string | string[] | undefined) =>
  (Array.isArray(setCookie) ? setCookie[0] : setCookie)?.split(';')[0] ?? '';

describe('POST /auth/sign-out ends the sessions whose tokens it is given, whatever key comes along', () => {
  it('with a revoked API key', async () => {
    const { application, publicKey } = await createTestApplication(app);
    const { token } = await signIn(app, newEmail(), { 'x-api-key': publicKey });
    await revokeApiKey(app, publicKey);
    const out = await app.request('POST', '/auth/sign-out', {
      headers: bearer(token, { 'x-api-key': publicKey }),
    });
    expect(out.status).toBe(200);
    expect(out.body).toEqual({ signedOut: true });
    expect(out.headers['set-cookie']?.[0]).toMatch(
      new RegExp(`^doorcode\\.session_token\\.${application.id}=;`),
    );
    expect((await app.request('GET', '/auth/session', { headers: bearer(token) })).status).toBe(401);
  });

  it("with another application's key", async () => {
    const a = await createTestApplication(app);
    const b = await createTestApplication(app);
    const { token } = await signIn(app, newEmail(), { 'x-api-key': a.publicKey });
    const out = await app.request('POST', '/auth/sign-out', {
      headers: bearer(token, { 'x-api-key': b.publicKey }),
    });
    expect(out.status).toBe(200);
    expect(
      (await app.request('GET', '/auth/session', { headers: bearer(token, { 'x-api-key': a.publicKey }) }))
        .status,
    ).toBe(401);
  });

  it('ends a cookie session and clears that cookie', async () => {
    const { response, token } = await signIn(app, newEmail(), { origin: PLATFORM_ORIGIN });
    const cookie = cookieOf(response.headers['set-cookie']);
    const out = await app.request('POST', '/auth/sign-out', { headers: { cookie, origin: PLATFORM_ORIGIN } });
    expect(out.headers['set-cookie']).toEqual([
      expect.stringMatching(/^doorcode\.session_token=; Max-Age=0;/),
    ]);
    expect((await app.request('GET', '/auth/session', { headers: bearer(token) })).status).toBe(401);
  });
});

describe('POST /auth/sign-out leaves other applications alone', () => {
  it("ends this application's session and clears only its cookie, not the platform's", async () => {
    const { application, publicKey } = await createTestApplication(app);
    const platform = await signIn(app, newEmail(), { origin: PLATFORM_ORIGIN });
    const inApp = await signIn(app, newEmail(), { origin: PLATFORM_ORIGIN, 'x-api-key': publicKey });
    const cookie = `${cookieOf(platform.response.headers['set-cookie'])}; ${cookieOf(inApp.response.headers['set-cookie'])}`;

    const out = await app.request('POST', '/auth/sign-out', {
      headers: { cookie, 'x-api-key': publicKey, origin: PLATFORM_ORIGIN },
    });
    expect(out.status).toBe(200);
    expect(out.headers['set-cookie']).toEqual([
      expect.stringMatching(new RegExp(`^doorcode\\.session_token\\.${application.id}=; Max-Age=0;`)),
    ]);
    expect(
      (
        await app.request('GET', '/auth/session', {
          headers: bearer(inApp.token, { 'x-api-key': publicKey }),
        })
      ).status,
    ).toBe(401);
    expect((await app.request('GET', '/auth/session', { headers: bearer(platform.token) })).status).toBe(200);
  });
});

describe('session cookies sent twice under one name', () => {
  it('use the value that resolves, whichever comes first', async () => {
    const { response, token } = await signIn(app, newEmail(), { origin: PLATFORM_ORIGIN });
    const good = cookieOf(response.headers['set-cookie']);
    const planted = 'doorcode.session_token=eyJhbGciOiJSUzI1NiJ9.e30.c2ln';
    const info = await app.request('GET', '/auth/session', { headers: { cookie: `${planted}; ${good}` } });
    expect(info.status).toBe(200);
    expect(info.body.token).toBe(token);
  });
});

describe('secret keys spelled ak_', () => {
  it('are the same key as the sk_ key that was issued', async () => {
    const { secretKey, email } = await startSynthetic(app);
    const alias = `ak_${secretKey.slice(3)}`;
    const peek = await app.request('POST', '/auth/code/peek', {
      body: { email },
      headers: { 'x-api-key': alias },
      ip: freshIp(),
    });
    expect(peek.status).toBe(200);
    // The same answer as the sk_ spelling gives.
    const same = await app.request('POST', '/auth/code/peek', {
      body: { email },
      headers: { 'x-api-key': secretKey },
      ip: freshIp(),
    });
    expect(peek.body.code).toMatch(/^[A-Z2-9]{4}-[A-Z2-9]{4}$/);
    expect(peek.body).toEqual(same.body);
  });

  it('do not turn a public key into a secret one', async () => {
    const { publicKey } = await createTestApplication(app);
    const forged = `ak_${publicKey.slice(3)}`;
    const response = await app.request('GET', '/auth/session', { headers: { 'x-api-key': forged } });
    expect(response.status).toBe(401);
  });
});

describe('the per-recipient start limit counts mailboxes', () => {
  it('treats +tag sub-addresses and Gmail dots as the same recipient', () => {
    expect(mailboxOf('victim+1@example.test')).toBe('victim@example.test');
    expect(mailboxOf('v.i.c.t.i.m+x@googlemail.com')).toBe('victim@gmail.com');
    expect(mailboxOf('first.last@example.test')).toBe('first.last@example.test');
  });

  it('refuses a fourth code to one inbox through +tag aliases', async () => {
    const local = `victim-${Date.now()}`;
    const answers = [];
    for (const tag of ['a', 'b', 'c', 'd']) {
      answers.push(
        (
          await app.request('POST', '/auth/code/start', {
            body: { email: `${local}+${tag}@example.test` },
            ip: freshIp(),
          })
        ).status,
      );
    }
    expect(answers).toEqual([200, 200, 200, 429]);
  });
});

describe('POST /auth/code/start when the email cannot be sent', () => {
  it('gives the recipient its start back, so an outage does not lock the address out', async () => {
    const email = newEmail();
    mailDown = true;
    try {
      for (let i = 0; i < 3; i++) {
        const failed = await app.request('POST', '/auth/code/start', { body: { email }, ip: freshIp() });
        expect(failed.status).toBe(503);
      }
    } finally {
      mailDown = false;
    }
    const start = await app.request('POST', '/auth/code/start', { body: { email }, ip: freshIp() });
    expect(start.status).toBe(200);
  });

  it('gives the mailbox its starts back across scopes, beyond the cross-scope limit of 10', async () => {
    const applications = await Promise.all([1, 2, 3].map(() => createTestApplication(app)));
    // The platform and three applications, three starts each (each scope's own limit): 12 in all.
    const scopes = [{}, ...applications.map(({ publicKey }) => ({ 'x-api-key': publicKey }))];
    const email = newEmail();
    const answers: number[] = [];
    mailDown = true;
    try {
      for (const headers of scopes) {
        for (let i = 0; i < 3; i++) {
          const failed = await app.request('POST', '/auth/code/start', {
            body: { email },
            headers,
            ip: freshIp(),
          });
          answers.push(failed.status);
        }
      }
    } finally {
      mailDown = false;
    }
    expect(answers).toEqual(Array(12).fill(503));
    const start = await app.request('POST', '/auth/code/start', {
      body: { email },
      headers: scopes[3],
      ip: freshIp(),
    });
    expect(start.status).toBe(200);
  });
});

describe('a revoked API key', () => {
  it('is refused with 401 on start and GET /auth/session', async () => {
    const { publicKey } = await createTestApplication(app);
    await revokeApiKey(app, publicKey);
    const headers = { 'x-api-key': publicKey };
    const start = await app.request('POST', '/auth/code/start', {
      body: { email: newEmail() },
      headers,
      ip: freshIp(),
    });
    expect(start.status).toBe(401);
    expect(start.body.error.code).toBe('UNAUTHORIZED');
    expect((await app.request('GET', '/auth/session', { headers })).status).toBe(401);
  });
});
