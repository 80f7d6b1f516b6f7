import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  type DashboardWorld,
  expectAccessible,
  expectNarrowFit,
  signInThroughDashboard,
  startDashboard,
} from '../support/dashboard.ts';
import { freshIp } from '../support/http-client.ts';
import { bearer, newEmail, signIn } from '../support/sign-in.ts';
import { addSignedInMember, createOwnedApplication } from '../support/tenancy.ts';

/**
 * The console's configuration, users, impersonation and tenant organization screens, driven in
 * Chromium against the real service; every change is read back through the API with the owner's
 * own token (docs/api.md "Configuration and origin learning", "Users", "Impersonation", "Tenant
 * organizations").
 */
let world: DashboardWorld;
let page: Page;
let owned: Awaited<ReturnType<typeof createOwnedApplication>>;
let endUser: { email: string; token: string; id: string };
/** Another end user, whose address does not start as `endUser`'s does. */
let otherUser: { email: string };

const asOwner = (method: string, path: string) =>
  world.app.request(method, path, { headers: bearer(owned.owner.token), ip: freshIp() });
const asEndUser = (path: string) =>
  world.app.request('GET', path, {
    headers: bearer(endUser.token, { 'x-api-key': owned.publicKey }),
    ip: freshIp(),
  });

/** A success line of the screen (`role="status"`) holding `text`. */
const done = (text: string | RegExp) => page.getByRole('status').filter({ hasText: text });

beforeAll(async () => {
  world = await startDashboard();
  owned = await createOwnedApplication(world.app, 'Acme Notes');
  const email = newEmail();
  const signedIn = await signIn(world.app, email, { 'x-api-key': owned.publicKey });
  endUser = { email, token: signedIn.token, id: signedIn.body.user.id as string };
  // `newEmail` addresses share their first 5 characters: this one differs right after them.
  let other = newEmail();
  while (other.slice(0, 6) === email.slice(0, 6)) other = newEmail();
  await signIn(world.app, other, { 'x-api-key': owned.publicKey });
  otherUser = { email: other };
  page = await world.browser.newPage();
  await signInThroughDashboard(
    page,
    world,
    owned.owner.email,
    `/applications/${owned.applicationId}/configuration`,
  );
});
afterAll(async () => {
  await world?.close();
});

describe('dashboard users', () => {
  it('sets the official origin, and shows the API refusal beside the field', async () => {
    const origin = page.getByLabel('Official origin');
    await origin.waitFor();
    await expectAccessible(page, 'configuration');

    await origin.fill('https://notes.acme.com/app');
    await page.getByRole('button', { name: 'Save', exact: true }).click();
    const refusal = page.locator('.field-error', {
      hasText: 'an origin is https://host[:port], without a path',
    });
    await refusal.waitFor();
    expect(await origin.getAttribute('aria-invalid')).toBe('true');
    const describedBy = (await origin.getAttribute('aria-describedby')) ?? '';
    expect(describedBy.split(' ')).toContain(await refusal.getAttribute('id'));
    expect(
      (await asOwner('GET', `/applications/${owned.applicationId}/configuration`)).body.origin,
    ).toBeNull();

    await origin.fill('https://notes.acme.com');
    await page.getByRole('button', { name: 'Save', exact: true }).click();
    await done('Configuration saved.').waitFor();
    const stored = await asOwner('GET', `/applications/${owned.applicationId}/configuration`);
    expect(stored.status).toBe(200);
    expect(stored.body.origin).toBe('https://notes.acme.com');
    // The audit trail says who set it.
    await page.getByText(`Set by ${owned.owner.email}`).waitFor();
    await expectNarrowFit(page, 'configuration');
  });

  it('finds the user by a search that keeps the focus, and moves back and forward', async () => {
    await page.getByRole('navigation', { name: 'Sections' }).getByRole('link', { name: 'Users' }).click();
    const usersTitle = page.getByRole('heading', { level: 1, name: 'Users of Acme Notes' });
    await usersTitle.waitFor();
    await page.getByRole('link', { name: endUser.email }).waitFor();
    await page.getByRole('link', { name: otherUser.email }).waitFor();
    await expectAccessible(page, 'users');
    await expectNarrowFit(page, 'users');

    // Enter submits the search; the form stays, and the focus with it in the input.
    const query = endUser.email.slice(0, 10).toUpperCase();
    const search = page.getByLabel('Search users');
    await search.fill(query);
    await search.press('Enter');
    await page.getByRole('heading', { level: 2, name: /starts with/ }).waitFor();
    expect(new URL(page.url()).searchParams.get('q')).toBe(query);
    await expect.poll(() => page.getByRole('link', { name: otherUser.email }).count()).toBe(0);
    await page.getByRole('link', { name: endUser.email }).waitFor();
    expect(await page.getByRole('link', { name: otherUser.email }).count()).toBe(0);
    expect(await search.inputValue()).toBe(query);
    expect(
      await page.evaluate('document.activeElement === document.querySelector("input[type=search]")'),
    ).toBe(true);

    await page.getByRole('link', { name: endUser.email }).click();
    const userTitle = page.getByRole('heading', { level: 1, name: endUser.email });
    await userTitle.waitFor();
    await expectAccessible(page, 'user');

    // Back shows the search as it was, forward the user again: each its own screen and h1.
    await page.goBack();
    await usersTitle.waitFor();
    expect(new URL(page.url()).searchParams.get('q')).toBe(query);
    expect(await search.inputValue()).toBe(query);
    await page.getByRole('link', { name: endUser.email }).waitFor();
    expect(await page.getByRole('link', { name: otherUser.email }).count()).toBe(0);
    expect(await userTitle.count()).toBe(0);
    await page.goForward();
    await userTitle.waitFor();
    expect(await usersTitle.count()).toBe(0);
    expect(new URL(page.url()).pathname).toBe(
      `/dashboard/applications/${owned.applicationId}/users/${endUser.id}`,
    );
  });

  it('impersonates the user with a reason, manages it meanwhile, and ends it', async () => {
    const reason = 'Ticket 4242: the user cannot see their invoices';
    await page.getByLabel('Reason').fill(reason);
    await page.getByRole('button', { name: 'Impersonate', exact: true }).click();
    const banner = page.getByRole('region', { name: `You are impersonating ${endUser.email}` });
    await banner.waitFor();
    await banner.getByText(`Reason: ${reason}`).waitFor();
    const timer = banner.getByRole('timer');
    const first = (await timer.textContent()) ?? '';
    expect(first).toMatch(/^1[45]:\d\d$/);
    // The countdown moves on each second.
    await timer.filter({ hasNotText: first }).waitFor({ timeout: 3000 });
    expect((await timer.textContent()) ?? '').toMatch(/^1[45]:\d\d$/);
    // One impersonation at a time: Impersonate is gone while it runs. The management controls stay:
    // their routes pass over the impersonation cookie and answer the support user's own session
    // (docs/api.md "Impersonation").
    expect(await page.getByLabel('Reason').count()).toBe(0);
    expect(await page.getByRole('button', { name: 'Impersonate', exact: true }).count()).toBe(0);
    for (const name of ['Save name', 'Disable', 'Revoke sessions', 'Delete']) {
      expect(await page.getByRole('button', { name, exact: true }).count(), name).toBe(1);
    }
    await page.getByLabel('Name', { exact: true }).fill('Ada Support');
    await page.getByRole('button', { name: 'Save name' }).click();
    await done('Name saved.').waitFor();
    const userPath = `/applications/${owned.applicationId}/users/${endUser.id}`;
    expect((await asOwner('GET', userPath)).body.name).toBe('Ada Support');
    await page.getByRole('definition').filter({ hasText: 'Ada Support' }).waitFor();
    // Saving the name ended nothing.
    expect(await banner.count()).toBe(1);
    await expectAccessible(page, 'user while impersonating');
    await expectNarrowFit(page, 'user while impersonating');

    await banner.getByRole('button', { name: 'End impersonation' }).click();
    await done(`The impersonation of ${endUser.email} ended.`).waitFor();
    expect(await banner.count()).toBe(0);
    await page.getByLabel('Reason').waitFor();
    await page.getByRole('button', { name: 'Disable', exact: true }).waitFor();

    const started = await asOwner(
      'GET',
      `/applications/${owned.applicationId}/audit?action=impersonation.started`,
    );
    expect(started.status).toBe(200);
    expect(started.body.items).toHaveLength(1);
    expect(started.body.items[0]).toMatchObject({ reason, userId: endUser.id });
    const ended = await asOwner(
      'GET',
      `/applications/${owned.applicationId}/audit?action=impersonation.ended`,
    );
    expect(ended.body.items).toHaveLength(1);
    expect(ended.body.items[0]).toMatchObject({
      reason,
      cause: 'ended',
      impersonationId: started.body.items[0].impersonationId,
    });
  });

  it("revokes the user's sessions, then disables and enables it", async () => {
    expect((await asEndUser('/auth/session')).status).toBe(200);
    await page.getByRole('button', { name: 'Revoke sessions' }).click();
    await page.getByRole('dialog').getByRole('button', { name: 'End sessions' }).click();
    await done(`Ended 1 session of ${endUser.email}.`).waitFor();
    const revoked = await asEndUser('/auth/session');
    expect(revoked.status).toBe(401);
    expect(revoked.body.error.code).toBe('UNAUTHORIZED');

    const userPath = `/applications/${owned.applicationId}/users/${endUser.id}`;
    await page.getByRole('button', { name: 'Disable', exact: true }).click();
    const dialog = page.getByRole('dialog');
    await expectAccessible(page, 'disable confirmation');
    await dialog.getByRole('button', { name: 'Disable user' }).click();
    await done(`${endUser.email} is disabled`).waitFor();
    expect((await asOwner('GET', userPath)).body.disabled).toBe(true);
    await page.getByText('Disabled since').waitFor();
    // A disabled user cannot be impersonated: the form is replaced by why.
    expect(await page.getByLabel('Reason').count()).toBe(0);

    await page.getByRole('button', { name: 'Enable', exact: true }).click();
    await done(`${endUser.email} is enabled`).waitFor();
    expect((await asOwner('GET', userPath)).body.disabled).toBe(false);
    await page.getByRole('button', { name: 'Disable', exact: true }).waitFor();
  });

  it('creates a tenant organization owned by the user', async () => {
    await page
      .getByRole('navigation', { name: 'Sections' })
      .getByRole('link', { name: 'Organizations' })
      .click();
    await page.getByLabel('Organization name').waitFor();
    await expectAccessible(page, 'tenant organizations');

    await page.getByLabel('Organization name').fill('Acme Robotics');
    await page.getByLabel("Owner's email").fill(endUser.email);
    await page.getByRole('button', { name: 'Create organization' }).click();
    await done('Created Acme Robotics.').waitFor();
    const listed = await asOwner('GET', `/applications/${owned.applicationId}/organizations`);
    const created = (listed.body.items as Array<{ id: string; name: string; memberCount: number }>).find(
      (item) => item.name === 'Acme Robotics',
    );
    expect(created).toMatchObject({ memberCount: 1 });
    await expectNarrowFit(page, 'tenant organizations');

    await page.getByRole('link', { name: 'Acme Robotics' }).click();
    await page.getByRole('heading', { level: 1, name: 'Acme Robotics' }).waitFor();
    const row = page.getByRole('row').filter({ hasText: endUser.email });
    await row.getByRole('cell', { name: 'owner', exact: true }).waitFor();
    await expectAccessible(page, 'tenant organization');
    await expectNarrowFit(page, 'tenant organization');

    // The organization keeps an owner: the API's refusal shows as it comes.
    await row.getByRole('button', { name: 'Make member' }).click();
    await page.getByRole('alert').filter({ hasText: 'LAST_OWNER' }).waitFor();

    const organizationPath = `/applications/${owned.applicationId}/organizations/${created?.id}`;
    await page.getByLabel('Organization name').fill('Acme Robots');
    await page.getByRole('button', { name: 'Rename' }).click();
    await done('Renamed to Acme Robots.').waitFor();
    expect((await asOwner('GET', organizationPath)).body.name).toBe('Acme Robots');

    await page.getByRole('button', { name: 'Delete organization' }).click();
    const dialog = page.getByRole('dialog');
    await dialog.getByLabel('Type Acme Robots to confirm').fill('Acme Robots');
    await dialog.getByRole('button', { name: 'Delete organization' }).click();
    await done('Acme Robots is deleted.').waitFor();
    expect((await asOwner('GET', organizationPath)).status).toBe(404);
  });

  it("shows a member the values with none of the managers' controls", async () => {
    const member = await addSignedInMember(world.app, owned.owner.token, owned.organizationId, 'member');
    await page.getByRole('button', { name: 'Sign out' }).click();
    await page.getByLabel('Email').waitFor();
    const base = `/applications/${owned.applicationId}`;
    await signInThroughDashboard(page, world, member.email, `${base}/configuration`);
    await page.getByRole('definition').filter({ hasText: 'https://notes.acme.com' }).waitFor();
    expect(await page.getByLabel('Official origin').count()).toBe(0);
    expect(await page.getByRole('button', { name: 'Save', exact: true }).count()).toBe(0);
    await expectAccessible(page, 'configuration, read-only');

    await page.goto(`${world.dashboard}${base}/users/${endUser.id}`);
    await page.getByRole('heading', { level: 1, name: endUser.email }).waitFor();
    await page.getByText('Email verified').waitFor();
    for (const name of ['Disable', 'Revoke sessions', 'Delete', 'Impersonate', 'Save name']) {
      expect(await page.getByRole('button', { name, exact: true }).count(), name).toBe(0);
    }

    await page.goto(`${world.dashboard}${base}/organizations`);
    // The organization the user's first sign-in created.
    await page.getByRole('columnheader', { name: 'Members' }).waitFor();
    expect(await page.getByRole('button', { name: 'Create organization' }).count()).toBe(0);
  });
});
