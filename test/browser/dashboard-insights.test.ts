/**
 * The owner dashboard's insights, audit trail and account screens (docs/dashboard.md) in Chromium,
 * against the real service: an owner, its organization and application made through the API, end
 * users signed in with the public key so the statistics count something, and every outcome read back
 * through the API.
 */
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  type DashboardWorld,
  expectAccessible,
  expectNarrowFit,
  signInThroughDashboard,
  startDashboard,
} from '../support/dashboard.ts';
import { bearer, newEmail, signIn } from '../support/sign-in.ts';
import { createOwnedApplication, manage } from '../support/tenancy.ts';

let world: DashboardWorld;
let owned: Awaited<ReturnType<typeof createOwnedApplication>>;
let page: Page;
/** Every console error the page logged: a CSP violation is one. */
const consoleErrors: string[] = [];

/** Three end users, the first of them twice: 4 sign-ins and 3 new users today. */
const END_USER_SIGN_INS = 4;
/** Keys made and revoked on top of the two the bootstrap made, so the trail holds more than a page (20). */
const EXTRA_KEYS = 9;

beforeAll(async () => {
  world = await startDashboard();
  owned = await createOwnedApplication(world.app, 'Insights Notes');
  const first = newEmail();
  for (const email of [first, newEmail(), newEmail(), first]) {
    await signIn(world.app, email, { 'x-api-key': owned.publicKey });
  }
  const token = owned.owner.token;
  const keysPath = `/applications/${owned.applicationId}/api-keys`;
  const extra: string[] = [];
  // The service's clock stands still in tests: each change a second later, so newest first is one order.
  for (let i = 0; i < EXTRA_KEYS; i++) {
    world.app.clock.advance(1000);
    const made = await manage(
      world.app,
      'POST',
      '/api-keys',
      { token },
      { applicationId: owned.applicationId, type: 'public' },
    );
    expect(made.status).toBe(201);
    extra.push(made.body.id as string);
  }
  const listed = await manage(world.app, 'GET', keysPath, { token });
  const secret = (listed.body.items as Array<{ id: string; type: string }>).find(
    (key) => key.type === 'secret',
  );
  for (const id of [...extra, secret?.id ?? '']) {
    world.app.clock.advance(1000);
    expect((await manage(world.app, 'DELETE', `${keysPath}/${id}`, { token })).status).toBe(200);
  }

  // The statistics count these once the aggregator has read the table's stream (docs/data-model.md, Statistics).
  await world.app.caughtUp();
  page = await world.browser.newPage();
  page.on('console', (message) => {
    if (message.type() === 'error') consoleErrors.push(message.text());
  });
  page.on('pageerror', (error) => consoleErrors.push(error.message));
  await signInThroughDashboard(
    page,
    world,
    owned.owner.email,
    `/applications/${owned.applicationId}/insights`,
  );
});
afterAll(async () => {
  await world?.close();
});

const today = () => new Date(world.app.clock.now()).toISOString().slice(0, 10);

/** The text of each cell of column `column` (0-based) of `table`'s body rows. */
const column = (table: ReturnType<Page['getByRole']>, index: number) =>
  table
    .locator('tbody tr')
    .evaluateAll(
      (rows, at) => rows.map((row) => row.querySelectorAll('td, th')[at]?.textContent?.trim() ?? ''),
      index,
    );

describe('dashboard insights', () => {
  it('charts the sign-ins per day with the same numbers in a table, for the range chosen', async () => {
    const api = await manage(world.app, 'GET', `/applications/${owned.applicationId}/statistics`, {
      token: owned.owner.token,
    });
    expect(api.body.totals.signIns).toBe(END_USER_SIGN_INS);

    const signIns = page.getByRole('table', { name: /^Sign-ins per day/ });
    await signIns.waitFor();
    expect(await page.locator('canvas[role="img"]').count()).toBe(2);
    expect(await page.getByRole('img', { name: /^Sign-ins per day/ }).getAttribute('aria-label')).toMatch(
      new RegExp(`^Sign-ins per day, 30 days, ${END_USER_SIGN_INS} in total`),
    );
    expect(await signIns.locator('tbody tr').count()).toBe(30);
    const todayRow = signIns.locator('tbody tr', { has: page.locator(`time[datetime="${today()}"]`) });
    expect(await todayRow.locator('td').textContent()).toBe(String(END_USER_SIGN_INS));
    const newUsers = page.getByRole('table', { name: /^New users per day/ });
    const newToday = newUsers.locator('tbody tr', { has: page.locator(`time[datetime="${today()}"]`) });
    expect(await newToday.locator('td').textContent()).toBe(String(api.body.totals.newUsers));
    await expectAccessible(page, 'insights');

    await page.getByLabel('Range').selectOption('7');
    await expect.poll(() => signIns.locator('tbody tr').count()).toBe(7);
    expect(new URL(page.url()).searchParams.get('range')).toBe('7');
    expect(await todayRow.locator('td').textContent()).toBe(String(END_USER_SIGN_INS));
    await expectAccessible(page, 'insights, 7 days');
  });

  it('fits the chart into a 375 px wide screen and breaks no CSP rule', async () => {
    await page.setViewportSize({ width: 375, height: 800 });
    try {
      const chart = page.getByRole('img', { name: /^Sign-ins per day/ });
      await expect
        .poll(async () => (await chart.boundingBox())?.width ?? Number.POSITIVE_INFINITY)
        .toBeLessThan(375);
      expect(await page.evaluate<number>('document.documentElement.scrollWidth')).toBeLessThanOrEqual(375);
      await expectAccessible(page, 'insights at 375 px');
    } finally {
      await page.setViewportSize({ width: 1280, height: 800 });
    }
    expect(consoleErrors).toEqual([]);
  });

  it('says so when nobody signed in to the application over the range', async () => {
    const quiet = await manage(
      world.app,
      'POST',
      `/application/${owned.organizationId}`,
      { token: owned.owner.token },
      { name: 'Quiet Notes' },
    );
    expect(quiet.status).toBe(201);
    await page.goto(`${world.dashboard}/applications/${quiet.body.id}/insights`);
    await page.getByText('No sign-ins in these 30 days.').waitFor();
    expect(await page.getByText('No new users in these 30 days.').count()).toBe(1);
    expect(await page.locator('canvas').count()).toBe(0);
    expect(await page.getByRole('table').count()).toBe(0);
    await expectAccessible(page, 'insights, empty');
  });
});

describe('dashboard audit trail', () => {
  it("lists the application's trail newest first, a page at a time, and filters it by action", async () => {
    const all = await manage(world.app, 'GET', `/applications/${owned.applicationId}/audit?limit=100`, {
      token: owned.owner.token,
    });
    const expected = (all.body.items as Array<{ action: string }>).map((entry) => entry.action);
    expect(expected.length).toBeGreaterThan(20);
    expect(expected[0]).toBe('apiKey.revoked');

    await page.goto(`${world.dashboard}/applications/${owned.applicationId}/audit`);
    const table = page.getByRole('table', { name: 'Entries, newest first' });
    await table.waitFor();
    expect(await column(table, 2)).toEqual(expected.slice(0, 20));
    await expectAccessible(page, 'application audit trail');
    await expectNarrowFit(page, 'application audit trail');

    await page.getByRole('button', { name: 'Load more' }).click();
    await expect.poll(() => table.locator('tbody tr').count()).toBe(expected.length);
    expect(await column(table, 2)).toEqual(expected);
    expect(await page.getByRole('button', { name: 'Load more' }).count()).toBe(0);

    await page.getByLabel('Action').selectOption('apiKey.created');
    const created = expected.filter((action) => action === 'apiKey.created');
    await expect.poll(() => column(table, 2)).toEqual(created);
    expect(created).toHaveLength(EXTRA_KEYS + 2);
    expect(new URL(page.url()).searchParams.get('action')).toBe('apiKey.created');
    await expectAccessible(page, 'application audit trail, filtered');

    await page.getByLabel('Action').selectOption('user.deleted');
    await page.getByText('No user.deleted entries.').waitFor();
    expect(await table.count()).toBe(0);
  });

  it("lists the organization's own trail", async () => {
    const api = await manage(world.app, 'GET', `/organizations/${owned.organizationId}/audit`, {
      token: owned.owner.token,
    });
    const entries = api.body.items as Array<{ action: string; target: { label: string; type: string } }>;
    // The bootstrap made its two in one instant of the service's clock: the API's order is the one to show.
    expect(entries.map((entry) => entry.action).sort()).toEqual([
      'application.created',
      'application.created',
      'organization.created',
    ]);

    await page.goto(`${world.dashboard}/organizations/${owned.organizationId}/audit`);
    const table = page.getByRole('table', { name: 'Entries, newest first' });
    await table.waitFor();
    expect(await column(table, 2)).toEqual(entries.map((entry) => entry.action));
    expect(await column(table, 3)).toEqual(
      entries.map((entry) => `${entry.target.label} (${entry.target.type})`),
    );
    expect(await column(table, 3)).toContain('Insights Notes (application)');
    await expectAccessible(page, 'organization audit trail');
  });
});

describe('dashboard account', () => {
  const session = (token: string) => world.app.request('GET', '/auth/session', { headers: bearer(token) });

  it('changes the name and the photo, and shows the API refusing a photo URL beside its field', async () => {
    await page.goto(`${world.dashboard}/account`);
    await page.getByLabel('Name').fill('Ada Console');
    await page.getByRole('button', { name: 'Save profile' }).click();
    await page.getByRole('status').filter({ hasText: 'Your profile is saved.' }).waitFor();
    expect((await session(owned.owner.token)).body.user.name).toBe('Ada Console');

    await page.getByLabel('Photo URL').fill('http://photos.example/ada.png');
    await page.getByRole('button', { name: 'Save profile' }).click();
    await expect.poll(() => page.getByLabel('Photo URL').getAttribute('aria-invalid')).toBe('true');
    expect(await page.getByText('an image URL must use https').count()).toBe(1);
    expect((await session(owned.owner.token)).body.user.image).toBeNull();

    // A 1×1 PNG.
    const png = Buffer.from(
      'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==',
      'base64',
    );
    await page
      .getByLabel('Upload a photo')
      .setInputFiles({ name: 'ada.png', mimeType: 'image/png', buffer: png });
    await page.getByRole('button', { name: 'Save profile' }).click();
    await page.getByRole('img', { name: 'Your current avatar' }).waitFor();
    expect((await session(owned.owner.token)).body.user.image).toMatch(/\/images\/[\w-]+\.png$/);
    expect(await page.getByText('No program holds access to your account.').count()).toBe(1);
    await expectAccessible(page, 'account');
    await expectNarrowFit(page, 'account');
  });

  it('lists the sessions, revokes another one, then signs out all the others', async () => {
    const second = await signIn(world.app, owned.owner.email);
    const mine = await world.app.request('GET', '/auth/list-sessions', { headers: bearer(second.token) });
    const secondSession = (mine.body.items as Array<{ id: string; ip: string; current: boolean }>).find(
      (item) => item.current,
    );
    expect(secondSession).toBeDefined();

    await page.goto(`${world.dashboard}/account`);
    const table = page.getByRole('table', { name: 'Your sessions, newest first' });
    await table.waitFor();
    // The bootstrap's session, this console's, and the second sign-in.
    expect(await table.locator('tbody tr').count()).toBe(mine.body.items.length);
    expect(await table.locator('tbody tr').count()).toBe(3);
    expect(await column(table, 4)).toContain('This session');

    const row = table
      .getByRole('row')
      .filter({ has: page.getByRole('cell', { name: secondSession?.ip ?? '', exact: true }) });
    await row.getByRole('button', { name: 'Revoke' }).click();
    await expectAccessible(page, 'account, revoke dialog');
    await page.getByRole('dialog').getByRole('button', { name: 'Revoke session' }).click();
    await page.getByRole('status').filter({ hasText: 'is revoked' }).waitFor();
    expect((await session(second.token)).status).toBe(401);
    await expect.poll(() => table.locator('tbody tr').count()).toBe(2);
    expect((await session(owned.owner.token)).status).toBe(200);

    await page.getByRole('button', { name: 'Sign out other sessions' }).click();
    await page.getByRole('dialog').getByRole('button', { name: 'Sign them out' }).click();
    await page.getByRole('status').filter({ hasText: 'Signed out 1 other session.' }).waitFor();
    expect((await session(owned.owner.token)).status).toBe(401);
    await expect.poll(() => table.locator('tbody tr').count()).toBe(1);
    expect(await page.getByRole('button', { name: 'Sign out other sessions' }).count()).toBe(0);
    await expectAccessible(page, 'account, one session');
  });
});
