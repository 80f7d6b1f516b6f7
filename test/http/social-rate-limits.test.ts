import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { limits } from '../../shared/rate-limit/limits.ts';
import { startTestApp, type TestApp } from '../support/app.ts';
import { freshIp, type TestResponse } from '../support/http-client.ts';
import { socialApplication } from '../support/social-application.ts';
import {
  type SocialProviders,
  socialEnv,
  startSocialProviders,
  withChallenge,
} from '../support/social-providers.ts';

// Social sign-in's per-IP limits (docs/social-sign-in.md, "What the user sees when it fails";
// shared/rate-limit/limits.ts): 10 starts, 10 callbacks and 30 views of the sign-in page a minute from one
// IP, and the recent-accounts routes' 30, whether they come one after the other or all at once. As across
// Lambda containers, no two requests read the same millisecond.
let app: TestApp;
let providers: SocialProviders;
let applicationId: string;
beforeAll(async () => {
  providers = await startSocialProviders();
  let last = 0;
  app = await startTestApp({
    env: socialEnv(providers),
    clock: { now: () => (last = Math.max(last + 1, Date.now())) },
  });
  applicationId = (await socialApplication(app, providers)).applicationId;
});
afterAll(async () => {
  await app?.close();
  await providers?.close();
});

const start = (ip: string) =>
  app.request('GET', withChallenge(`/auth/social/${applicationId}/github`), { ip });
/** A callback whose state nobody started: it still counts against the IP's limit before it is refused. */
const callback = (ip: string) =>
  app.request('GET', `/auth/social/${applicationId}/github/callback?code=c&state=${'s'.repeat(43)}`, { ip });

/** A 429 with its Retry-After, within the minute: a page for the browser's routes, else the envelope. */
function expectRefused(answer: TestResponse, html = true): void {
  expect(answer.status).toBe(429);
  if (html) {
    expect(answer.headers['content-type']).toMatch(/^text\/html\b/);
    expect(answer.text).toContain('Too many attempts');
  } else {
    expect(answer.body.error.code).toBe('RATE_LIMITED');
  }
  const retryAfter = Number(answer.headers['retry-after']);
  expect(retryAfter).toBeGreaterThan(0);
  expect(retryAfter).toBeLessThanOrEqual(60);
}

/** A view of the application's sign-in page: it counts against its own limit (30 a minute). */
const page = (ip: string) => app.request('GET', withChallenge(`/auth/social/${applicationId}`), { ip });

/** Each limited social route: how it is called, what it answers within its limit, and the limit. */
const limited = [
  { route: 'start', send: start, passes: 302, limit: limits.socialStartPerIp },
  { route: 'callback', send: callback, passes: 400, limit: limits.socialCallbackPerIp },
  { route: 'sign-in page', send: page, passes: 200, limit: limits.socialPagePerIp },
  // The recent-accounts routes' limit (30 a minute), counted even without a cookie.
  {
    route: 'recent-accounts list',
    send: (ip: string) => app.request('GET', '/recent-accounts', { ip }),
    passes: 200,
    limit: limits.recentAccountsPerIp,
    html: false,
  },
];

describe('social sign-in and recent-accounts per-IP limits', () => {
  it('the limits are 10 a minute for the start and the callback, 30 for the page', () => {
    expect([limits.socialStartPerIp.max, limits.socialStartPerIp.windowSeconds]).toEqual([10, 60]);
    expect([limits.socialCallbackPerIp.max, limits.socialCallbackPerIp.windowSeconds]).toEqual([10, 60]);
    expect([limits.socialPagePerIp.max, limits.socialPagePerIp.windowSeconds]).toEqual([30, 60]);
  });

  for (const { route, send, passes, limit, html } of limited) {
    it(`refuses the ${route}'s request past its limit from one IP with a 429, and no other IP's`, async () => {
      // Prepare
      const ip = freshIp();
      const allowed: number[] = [];
      for (let i = 0; i < limit.max; i++) allowed.push((await send(ip)).status);

      // Act
      const over = await send(ip);
      const elsewhere = await send(freshIp());

      // Assess
      expect(allowed).toEqual(Array(limit.max).fill(passes));
      expectRefused(over, html);
      expect(elsewhere.status).toBe(passes);
    });

    it(`lets exactly the limit of the ${route}'s requests through when 5 more come at once from one IP`, async () => {
      // Act
      const ip = freshIp();
      const answers = await Promise.all(Array.from({ length: limit.max + 5 }, () => send(ip)));

      // Assess
      expect(answers.filter((answer) => answer.status === passes)).toHaveLength(limit.max);
      const refused = answers.filter((answer) => answer.status !== passes);
      expect(refused).toHaveLength(5);
      for (const answer of refused) expectRefused(answer, html);
    });
  }
});
