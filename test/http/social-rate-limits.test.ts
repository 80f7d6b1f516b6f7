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

// Social sign-in's per-IP limits (issue 12 item 4; shared/rate-limit/limits.ts): 10 starts and 10
// callbacks a minute from one IP, whether they come one after the other or all at once. As across
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

/** A 429 page with its Retry-After, within the minute. */
function expectRefusedPage(answer: TestResponse): void {
  expect(answer.status).toBe(429);
  expect(answer.headers['content-type']).toMatch(/^text\/html\b/);
  expect(answer.text).toContain('Too many attempts');
  const retryAfter = Number(answer.headers['retry-after']);
  expect(retryAfter).toBeGreaterThan(0);
  expect(retryAfter).toBeLessThanOrEqual(60);
}

describe('social sign-in per-IP limits (10 a minute)', () => {
  it('the limits are 10 a minute for the start and the callback', () => {
    expect([limits.socialStartPerIp.max, limits.socialStartPerIp.windowSeconds]).toEqual([10, 60]);
    expect([limits.socialCallbackPerIp.max, limits.socialCallbackPerIp.windowSeconds]).toEqual([10, 60]);
  });

  it('refuses the 11th start from one IP with a 429 page', async () => {
    // Prepare
    const ip = freshIp();
    const allowed: number[] = [];
    for (let i = 0; i < 10; i++) allowed.push((await start(ip)).status);

    // Act
    const eleventh = await start(ip);
    const elsewhere = await start(freshIp());

    // Assess
    expect(allowed).toEqual(Array(10).fill(302));
    expectRefusedPage(eleventh);
    expect(elsewhere.status).toBe(302);
  });

  it('lets exactly 10 of 15 concurrent starts from one IP through', async () => {
    // Act
    const ip = freshIp();
    const answers = await Promise.all(Array.from({ length: 15 }, () => start(ip)));

    // Assess
    expect(answers.filter((answer) => answer.status === 302)).toHaveLength(10);
    const refused = answers.filter((answer) => answer.status !== 302);
    expect(refused).toHaveLength(5);
    for (const answer of refused) expectRefusedPage(answer);
  });

  it('refuses the 11th callback from one IP with a 429 page', async () => {
    // Prepare
    const ip = freshIp();
    const counted: number[] = [];
    for (let i = 0; i < 10; i++) counted.push((await callback(ip)).status);

    // Act
    const eleventh = await callback(ip);

    // Assess
    expect(counted).toEqual(Array(10).fill(400));
    expectRefusedPage(eleventh);
  });

  it('lets exactly 10 of 15 concurrent callbacks from one IP past the limit', async () => {
    // Act
    const ip = freshIp();
    const answers = await Promise.all(Array.from({ length: 15 }, () => callback(ip)));

    // Assess
    expect(answers.filter((answer) => answer.status === 400)).toHaveLength(10);
    const refused = answers.filter((answer) => answer.status !== 400);
    expect(refused).toHaveLength(5);
    for (const answer of refused) expectRefusedPage(answer);
  });
});
