import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  type DashboardWorld,
  expectAccessible,
  signInThroughDashboard,
  startDashboard,
} from '../support/dashboard.ts';
import { newEmail } from '../support/sign-in.ts';

let world: DashboardWorld;
beforeAll(async () => {
  world = await startDashboard();
});
afterAll(async () => {
  await world?.close();
});

describe('dashboard sign-in', () => {
  it('signs in by the emailed code and comes back to the screen asked for', async () => {
    const page = await world.browser.newPage();
    await page.goto(`${world.dashboard}/account`);
    await expectAccessible(page, 'sign-in');
    await signInThroughDashboard(page, world, newEmail(), '/account');
    expect(new URL(page.url()).pathname).toBe('/dashboard/account');
    await expectAccessible(page, 'account');
  });
});
