import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../support/app.ts';
import { freshIp } from '../support/http-client.ts';
import { latestCode, mailTo } from '../support/inbox.ts';
import { bearer, newEmail } from '../support/sign-in.ts';
import { createTestApplication } from '../support/tenancy.ts';

let app: TestApp;
beforeAll(async () => {
  app = await startTestApp();
});
afterAll(() => app.close());

describe('the agent path', () => {
  it('start, read the email, verify, session, refresh, list, revoke, sign out', async () => {
    const email = newEmail();
    const ip = freshIp();

    const start = await app.request('POST', '/auth/code/start', { body: { email, name: 'Ada' }, ip });
    expect(start.status).toBe(200);
    expect(start.body).toEqual({
      sent: true,
      deviceCode: expect.stringMatching(/^[0-9a-f]{64}$/),
      phrase: expect.stringMatching(/^[a-z]+ [a-z]+$/),
      expiresIn: 600,
      interval: 5,
    });

    const [message] = await mailTo(email);
    expect(message?.subject).toBe(`Your doorcode sign-in code (${start.body.phrase})`);
    expect(message?.body.text).toMatch(/\b[A-Z2-9]{4}-[A-Z2-9]{4}\b/);
    expect(message?.body.text).toContain('10 minutes');
    expect(message?.body.html).toContain('10 minutes');
    expect(message?.body.text).not.toMatch(/https?:\/\//);
    const code = await latestCode(email);

    const verify = await app.request('POST', '/auth/code/verify', {
      body: { email, code: code.toLowerCase() },
      ip,
      headers: { 'user-agent': 'agent/1.0' },
    });
    expect(verify.status).toBe(200);
    const { token, user, session } = verify.body;
    expect(verify.headers['set-auth-token']).toBe(token);
    expect(verify.headers['set-cookie']).toBeUndefined();
    expect(user).toMatchObject({ email, name: 'Ada', emailVerified: true, image: null });
    expect(session).toMatchObject({ id: expect.stringMatching(/^ses_/), applicationId: null });

    const info = await app.request('GET', '/auth/session', { headers: bearer(token) });
    expect(info.status).toBe(200);
    expect(info.body).toEqual({ user, session, application: null });

    app.clock.advance(1000);
    const refreshed = await app.request('POST', '/auth/refresh', { headers: bearer(token) });
    expect(refreshed.status).toBe(200);
    expect(refreshed.body.session.id).toBe(session.id);
    expect(refreshed.body.token).not.toBe(token);
    expect(Date.parse(refreshed.body.session.expiresAt)).toBeGreaterThan(Date.parse(session.expiresAt));
    expect((await app.request('GET', '/auth/session', { headers: bearer(token) })).status).toBe(401);
    const newToken = refreshed.body.token;

    const second = await app.request('POST', '/auth/code/start', { body: { email }, ip });
    expect(second.status).toBe(200);
    const again = await app.request('POST', '/auth/code/verify', {
      body: { email, code: await latestCode(email) },
      ip,
    });
    expect(again.status).toBe(200);
    expect(again.body.user.id).toBe(user.id);

    const list = await app.request('GET', '/auth/list-sessions', { headers: bearer(newToken) });
    expect(list.status).toBe(200);
    expect(list.body.page).toEqual({ limit: 2, offset: 0, total: null, hasMore: null });
    expect(list.body.items.map((s: { id: string }) => s.id)).toEqual([again.body.session.id, session.id]);
    expect(list.body.items[1]).toMatchObject({ current: true, device: 'agent/1.0', ip });

    const revoke = await app.request('POST', '/auth/revoke-session-by-id', {
      body: { id: again.body.session.id },
      headers: bearer(newToken),
    });
    expect(revoke.status).toBe(200);
    expect((await app.request('GET', '/auth/session', { headers: bearer(again.body.token) })).status).toBe(
      401,
    );

    const out = await app.request('POST', '/auth/sign-out', { headers: bearer(newToken) });
    expect(out.status).toBe(200);
    expect(out.body).toEqual({ signedOut: true });
    expect(out.headers['set-cookie']?.[0]).toMatch(/^doorcode\.session_token=; Max-Age=0;/);
    expect((await app.request('GET', '/auth/session', { headers: bearer(newToken) })).status).toBe(401);
  });
});

describe('the sign-in email', () => {
  it('names the application whose key started the sign-in, in text and HTML, with the code and no link', async () => {
    const { publicKey } = await createTestApplication(app, {}, 'Notes <Beta> & Co');
    const email = newEmail();
    const start = await app.request('POST', '/auth/code/start', {
      body: { email },
      headers: { 'x-api-key': publicKey },
      ip: freshIp(),
    });
    expect(start.status).toBe(200);
    const [message] = await mailTo(email);
    const code = await latestCode(email);
    expect(message?.subject).toBe(`Your Notes <Beta> & Co sign-in code (${start.body.phrase})`);
    expect(message?.from).toBe('no-reply@doorcode.test');
    expect(message?.body.text).toContain(`Your sign-in code for Notes <Beta> & Co is:`);
    expect(message?.body.text).toContain(code);
    // The application name is escaped in HTML; the code is shown as XXXX-XXXX.
    expect(message?.body.html).toContain('Notes &lt;Beta&gt; &amp; Co');
    expect(message?.body.html).toContain(code);
    expect(message?.body.html).not.toMatch(/href=/i);
  });
});
