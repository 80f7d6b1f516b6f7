import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../support/app.ts';
import { freshIp, type TestResponse } from '../support/http-client.ts';
import { latestCode } from '../support/inbox.ts';
import { newEmail, wrongCode } from '../support/sign-in.ts';
import { createTestApplication } from '../support/tenancy.ts';

let app: TestApp;
beforeAll(async () => {
  app = await startTestApp();
});
afterAll(() => app.close());

const start = (email: string, ip: string, headers: Record<string, string> = {}) =>
  app.request('POST', '/auth/code/start', { body: { email }, ip, headers });

/** 429 RATE_LIMITED with `Retry-After` and `details.retryAfter`, both in whole seconds (docs/api.md, Endpoints). */
function expectRateLimited(response: TestResponse): number {
  expect(response.status).toBe(429);
  expect(response.body.error.code).toBe('RATE_LIMITED');
  const retryAfter = Number(response.headers['retry-after']);
  expect(Number.isInteger(retryAfter) && retryAfter > 0).toBe(true);
  expect(response.body.error.details.retryAfter).toBe(retryAfter);
  return retryAfter;
}

describe('POST /auth/code/start: 5 per minute per IP', () => {
  it('refuses the sixth start from one IP until the window has passed', async () => {
    const ip = freshIp();
    for (let i = 0; i < 5; i++) expect((await start(newEmail(), ip)).status).toBe(200);

    const sixth = await start(newEmail(), ip);
    const retryAfter = expectRateLimited(sixth);
    expect(retryAfter).toBeLessThanOrEqual(60);

    // Another address on another IP is unaffected.
    expect((await start(newEmail(), freshIp())).status).toBe(200);

    app.clock.advance(retryAfter * 1000);
    expect((await start(newEmail(), ip)).status).toBe(200);
  });

  it('keys on the TCP source address, not X-Forwarded-For', async () => {
    const ip = freshIp();
    for (let i = 0; i < 5; i++) {
      const answer = await start(newEmail(), ip, { 'x-forwarded-for': `203.0.113.${i + 1}` });
      expect(answer.status).toBe(200);
    }
    const sixth = await start(newEmail(), ip, { 'x-forwarded-for': '198.51.100.77' });
    expectRateLimited(sixth);
  });
});

describe('POST /auth/code/start: 3 per 10 minutes per recipient', () => {
  it('refuses a fourth code to one address from another IP until ten minutes have passed', async () => {
    const email = newEmail();
    for (let i = 0; i < 3; i++) expect((await start(email, freshIp())).status).toBe(200);

    const fourth = await start(email, freshIp());
    const retryAfter = expectRateLimited(fourth);
    expect(retryAfter).toBeLessThanOrEqual(600);

    // Retry-After is honest: one second before it, the address is still refused.
    if (retryAfter > 1) {
      app.clock.advance((retryAfter - 1) * 1000);
      expectRateLimited(await start(email, freshIp()));
      app.clock.advance(1000);
    } else {
      app.clock.advance(retryAfter * 1000);
    }
    expect((await start(email, freshIp())).status).toBe(200);
  });

  it('allows the address again ten minutes later', async () => {
    const email = newEmail();
    for (let i = 0; i < 3; i++) expect((await start(email, freshIp())).status).toBe(200);
    expectRateLimited(await start(email, freshIp()));
    app.clock.advance(10 * 60 * 1000);
    expect((await start(email, freshIp())).status).toBe(200);
  });

  it('counts the address whatever its case', async () => {
    const email = newEmail();
    for (const variant of [email, email.toUpperCase(), email.replace(/^u/, 'U')]) {
      expect((await start(variant, freshIp())).status).toBe(200);
    }
    expectRateLimited(await start(email.toUpperCase(), freshIp()));
  });
});

describe('POST /auth/code/start: the recipient limit counts per scope', () => {
  it('leaves the address free in an application after three platform starts', async () => {
    const { publicKey } = await createTestApplication(app);
    const email = newEmail();
    for (let i = 0; i < 3; i++) expect((await start(email, freshIp())).status).toBe(200);
    expectRateLimited(await start(email, freshIp()));

    const inApplication = await start(email, freshIp(), { 'x-api-key': publicKey });

    expect(inApplication.status).toBe(200);
    expectRateLimited(await start(email, freshIp()));
  });

  it('refuses the eleventh start to one mailbox within 10 minutes across the platform and applications', async () => {
    const applications = await Promise.all([1, 2, 3, 4].map(() => createTestApplication(app)));
    const [first, second, third, fourth] = applications.map(({ publicKey }) => ({ 'x-api-key': publicKey }));
    const email = newEmail();
    // 3 + 3 + 3 + 1 = 10 starts in four scopes, none beyond its own 3.
    const starts: [Record<string, string>, number][] = [
      [{}, 3],
      [first!, 3],
      [second!, 3],
      [third!, 1],
    ];
    for (const [headers, count] of starts) {
      for (let i = 0; i < count; i++) expect((await start(email, freshIp(), headers)).status).toBe(200);
    }

    // The eleventh: its own scope has room, the mailbox has none; a `+tag` alias is the same mailbox.
    const retryAfter = expectRateLimited(await start(email, freshIp(), third));
    expect(retryAfter).toBeLessThanOrEqual(600);
    expectRateLimited(await start(email.replace('@', '+other@'), freshIp(), fourth));

    app.clock.advance(retryAfter * 1000);
    expect((await start(email, freshIp(), fourth)).status).toBe(200);
  });
});

describe('POST /auth/code/start: when several limits refuse at once, the longest wait wins', () => {
  it("answers the recipient limit's Retry-After, not the IP's before it or the mailbox's after it", async () => {
    const applications = await Promise.all([1, 2, 3].map(() => createTestApplication(app)));
    const [first, second, third] = applications.map(({ publicKey }) => ({ 'x-api-key': publicKey }));
    const email = newEmail();
    // t = 0: seven starts to the mailbox in three applications (3 + 3 + 1), each from its own IP.
    for (const [headers, count] of [
      [first!, 3],
      [second!, 3],
      [third!, 1],
    ] as const) {
      for (let i = 0; i < count; i++) expect((await start(email, freshIp(), headers)).status).toBe(200);
    }
    // t = 100 s: three platform starts to it and two to others, all from one IP.
    app.clock.advance(100_000);
    const ip = freshIp();
    for (let i = 0; i < 3; i++) expect((await start(email, ip)).status).toBe(200);
    for (let i = 0; i < 2; i++) expect((await start(newEmail(), ip)).status).toBe(200);

    // t = 110 s: all three refuse. The IP's oldest hit leaves in 50 s, the mailbox's tenth-newest
    // (t = 0) in 490 s, the recipient's oldest in the platform (t = 100 s) in 590 s.
    app.clock.advance(10_000);
    const refused = await start(email, ip);

    expect(expectRateLimited(refused)).toBe(590);
    expect(refused.body.error.details.reason).toBeUndefined();
  });
});

describe('POST /auth/code/verify and /auth/code/approve: 10 per minute per IP, shared', () => {
  it('refuses the eleventh code check from one IP as RATE_LIMITED, not TOO_MANY_ATTEMPTS', async () => {
    const emails = [newEmail(), newEmail(), newEmail()];
    const codes: string[] = [];
    for (const email of emails) {
      expect((await start(email, freshIp())).status).toBe(200);
      codes.push(await latestCode(email));
    }
    const ip = freshIp();

    // Ten wrong codes spread over three addresses (at most four each), alternating routes.
    for (let i = 0; i < 10; i++) {
      const route = i % 2 === 0 ? '/auth/code/verify' : '/auth/code/approve';
      const answer = await app.request('POST', route, {
        body: { email: emails[i % 3], code: wrongCode(codes[i % 3]!) },
        ip,
      });
      expect(answer.status, `check ${i + 1} (${route})`).toBe(400);
      expect(answer.body.error.code).toBe('VALIDATION_ERROR');
      expect(answer.body.error.details.attemptsLeft).toBeGreaterThanOrEqual(1);
    }

    // The eleventh, even with the right code, on either route.
    const eleventh = await app.request('POST', '/auth/code/verify', {
      body: { email: emails[0], code: codes[0] },
      ip,
    });
    expectRateLimited(eleventh);
    const twelfth = await app.request('POST', '/auth/code/approve', {
      body: { email: emails[1], code: codes[1] },
      ip,
    });
    expectRateLimited(twelfth);

    // The refusals spent no attempts: the right code still works from another IP.
    const other = await app.request('POST', '/auth/code/verify', {
      body: { email: emails[0], code: codes[0] },
      ip: freshIp(),
    });
    expect(other.status).toBe(200);
  });

  it('lets the IP check codes again once the minute has passed', async () => {
    const email = newEmail();
    expect((await start(email, freshIp())).status).toBe(200);
    const code = await latestCode(email);
    const ip = freshIp();
    for (let i = 0; i < 10; i++) {
      const answer = await app.request('POST', '/auth/code/approve', {
        body: { email: newEmail(), code },
        ip,
      });
      expect(answer.status).toBe(400);
    }
    const retryAfter = expectRateLimited(
      await app.request('POST', '/auth/code/verify', { body: { email, code }, ip }),
    );
    app.clock.advance(retryAfter * 1000);
    const later = await app.request('POST', '/auth/code/verify', { body: { email, code }, ip });
    expect(later.status).toBe(200);
  });
});

describe('POST /auth/code/poll: 60 per minute per IP', () => {
  it('refuses the sixty-first poll from one IP with details.retryAfter', async () => {
    const ip = freshIp();
    for (let i = 0; i < 60; i++) {
      const deviceCode = i.toString(16).padStart(64, '0');
      const answer = await app.request('POST', '/auth/code/poll', { body: { deviceCode }, ip });
      expect(answer.status, `poll ${i + 1}`).toBe(400);
      expect(answer.body.error.code).toBe('FORBIDDEN');
    }
    const sixtyFirst = await app.request('POST', '/auth/code/poll', {
      body: { deviceCode: 'f'.repeat(64) },
      ip,
    });
    const retryAfter = expectRateLimited(sixtyFirst);
    expect(retryAfter).toBeLessThanOrEqual(60);

    app.clock.advance(retryAfter * 1000);
    const later = await app.request('POST', '/auth/code/poll', { body: { deviceCode: 'f'.repeat(64) }, ip });
    expect(later.status).toBe(400);
    expect(later.body.error.code).toBe('FORBIDDEN');
  });
});

describe('limits hold over any window of their length, not per calendar window', () => {
  /** Moves the clock to `secondsBefore` seconds before the next multiple of `windowSeconds`. */
  const alignBefore = (windowSeconds: number, secondsBefore: number) => {
    const size = windowSeconds * 1000;
    const next = Math.ceil((app.clock.now() + 1) / size) * size;
    app.clock.advance(
      next -
        secondsBefore * 1000 -
        app.clock.now() +
        (next - secondsBefore * 1000 < app.clock.now() ? size : 0),
    );
  };

  it('refuses a sixth start from one IP just after a minute boundary', async () => {
    alignBefore(60, 2);
    const ip = freshIp();
    for (let i = 0; i < 5; i++) expect((await start(newEmail(), ip)).status).toBe(200);
    app.clock.advance(3000);
    const retryAfter = expectRateLimited(await start(newEmail(), ip));

    // Retry-After is honest: a second early is still too early, on time is allowed.
    app.clock.advance((retryAfter - 1) * 1000);
    expectRateLimited(await start(newEmail(), ip));
    app.clock.advance(1000);
    expect((await start(newEmail(), ip)).status).toBe(200);
  });

  it('refuses a fourth code to one address just after a ten-minute boundary', async () => {
    alignBefore(600, 5);
    const email = newEmail();
    for (let i = 0; i < 3; i++) expect((await start(email, freshIp())).status).toBe(200);
    app.clock.advance(10_000);
    expectRateLimited(await start(email, freshIp()));
  });
});

describe('POST /auth/code/peek: 60 per minute per IP', () => {
  it('refuses the sixty-first peek from one IP, refusals included', async () => {
    const { secretKey } = await createTestApplication(app, {
      authentication: { syntheticEmailDomain: 'synthetic.test' },
    });
    const ip = freshIp();
    const peek = () =>
      app.request('POST', '/auth/code/peek', {
        body: { email: newEmail('synthetic.test') },
        headers: { 'x-api-key': secretKey },
        ip,
      });
    for (let i = 0; i < 60; i++) expect((await peek()).status).toBe(404);
    expectRateLimited(await peek());
    expect(
      (
        await app.request('POST', '/auth/code/peek', {
          body: { email: newEmail('synthetic.test') },
          headers: { 'x-api-key': secretKey },
          ip: freshIp(),
        })
      ).status,
    ).toBe(404);
    // Many requests in a row: on a loaded machine more than the 30 s default (vitest.config.ts).
  }, 120_000);
});
