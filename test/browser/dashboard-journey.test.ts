import { mkdir } from 'node:fs/promises';
import { join } from 'node:path';
import type { Locator, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it, onTestFinished } from 'vitest';
import { launchBrowser, type PageServer, servePage } from '../support/browser.ts';
import {
  DASHBOARD_WAIT_MS,
  type DashboardWorld,
  expectAccessible,
  expectNarrowFit,
  signInThroughDashboard,
  startDashboard,
} from '../support/dashboard.ts';
import { latestCode } from '../support/inbox.ts';
import { bearer, newEmail, signIn } from '../support/sign-in.ts';
import { addSignedInMember, createOwnedApplication, manage } from '../support/tenancy.ts';

/**
 * The owner dashboard's journeys (docs/dashboard.md), nothing mocked: an owner from sign-in to sign-out
 * through every kind of screen, a member who sees no control the permission matrix refuses and whose
 * crafted call is refused, and a page of another origin that cannot make the console act.
 * `npm run docs:screenshots` runs this file with `DOORCODE_SCREENSHOTS` set to write the
 * docs/images/dashboard-*.png screenshots.
 */
const SCREENSHOTS = process.env.DOORCODE_SCREENSHOTS;

async function screenshot(page: Page, name: string) {
  if (!SCREENSHOTS) return;
  await mkdir(SCREENSHOTS, { recursive: true });
  await page.screenshot({ path: join(SCREENSHOTS, name), fullPage: true });
}

let world: DashboardWorld;
beforeAll(async () => {
  world = await startDashboard();
});
afterAll(async () => {
  await world?.close();
});

describe('an owner, from sign-in to sign-out', () => {
  it('creates, configures, supports a user, reads the trail and the insights, revokes, signs out', async () => {
    const { app } = world;
    const page = await world.browser.newPage();
    const owner = newEmail();

    await page.goto(world.dashboard);
    await page.getByLabel('Email').waitFor();
    await screenshot(page, 'dashboard-sign-in.png');
    await expectAccessible(page, 'sign-in');
    await signInThroughDashboard(page, world, owner);
    // The API token of the same account, for checking what the console did.
    const { token } = await signIn(app, owner);
    await expectAccessible(page, 'organizations');

    // An organization and an application in it.
    await page.getByLabel('Name', { exact: true }).fill('Acme');
    await page.getByRole('button', { name: 'Create organization' }).click();
    await page.getByRole('link', { name: 'Acme', exact: true }).click();
    await page.getByRole('heading', { level: 1, name: 'Acme' }).waitFor();
    await page.getByRole('button', { name: 'New application' }).click();
    await page.getByLabel('Name', { exact: true }).fill('Acme Notes');
    await page.getByRole('button', { name: 'Create', exact: true }).click();
    await page.getByRole('link', { name: 'Acme Notes' }).click();
    await page.getByRole('heading', { level: 1, name: 'Acme Notes' }).waitFor();
    const applicationId = decodeURIComponent(new URL(page.url()).pathname.split('/').at(-1) ?? '');
    expect(applicationId).toMatch(/^app_/);
    await expectAccessible(page, 'application');

    // A secret key, shown once, that works.
    await page.getByRole('link', { name: 'API keys' }).click();
    await page.getByRole('button', { name: 'New key' }).click();
    await page.getByRole('radio', { name: 'Secret' }).check();
    await page.getByRole('button', { name: 'Create', exact: true }).click();
    const secretKey = (await page.locator('.secret').first().textContent())?.trim() ?? '';
    expect(secretKey).toMatch(/^sk_/);
    await expectAccessible(page, 'API keys');
    const byKey = () =>
      fetch(`${app.url}/applications/${applicationId}`, { headers: { 'x-api-key': secretKey } });
    expect((await byKey()).status).toBe(200);

    // The official origin.
    await page.getByRole('link', { name: 'Configuration' }).click();
    await page.getByLabel('Official origin').fill('https://notes.acme.example');
    await page.getByRole('button', { name: 'Save' }).click();
    await expect
      .poll(async () => {
        const configuration = await manage(app, 'GET', `/applications/${applicationId}/configuration`, {
          token,
        });
        return JSON.stringify(configuration.body);
      })
      .toContain('https://notes.acme.example');
    await expectAccessible(page, 'configuration');

    // A user of the application signs in; the owner finds them and impersonates them with a reason.
    const user = newEmail();
    await signIn(app, user, { 'x-api-key': secretKey });
    await page.getByRole('link', { name: 'Users' }).click();
    await page.getByLabel('Search users').fill(user);
    await page.getByRole('link', { name: user }).waitFor();
    await expectAccessible(page, 'users');
    await page.getByRole('link', { name: user }).click();
    await page.getByRole('button', { name: 'Impersonate' }).click();
    await page.getByLabel('Reason').fill('Ticket 4411: cannot see their notes');
    await page
      .getByRole('button', { name: /Start impersonation|Impersonate/ })
      .last()
      .click();
    await page.getByRole('button', { name: 'End impersonation' }).waitFor();
    await expect.poll(() => page.locator('.banner').textContent()).toMatch(/\d{1,2}:\d{2}/);
    await screenshot(page, 'dashboard-impersonation.png');
    await expectAccessible(page, 'user (impersonating)');
    // It outlives a reload (the session names it), and the console manages on meanwhile.
    await page.reload();
    await page.getByRole('button', { name: 'End impersonation' }).waitFor();
    await page.getByRole('link', { name: 'API keys' }).click();
    await page.getByRole('table').first().waitFor();
    expect(await page.getByRole('alert').count()).toBe(0);
    await page.getByRole('button', { name: 'End impersonation' }).click();
    await page.getByRole('button', { name: 'End impersonation' }).waitFor({ state: 'detached' });

    expect(await page.getByText(/impersonation of .* ended/).count()).toBe(1);

    // The audit trail has the impersonation and its reason.
    await page.getByRole('link', { name: 'Audit trail' }).click();
    await page.getByText('Ticket 4411: cannot see their notes').first().waitFor();
    await expectAccessible(page, 'audit trail');

    // The insights table counts the sign-in.
    await page.getByRole('link', { name: 'Insights' }).click();
    await page.locator('canvas').first().waitFor();
    // Today is the table's last day: one sign-in, the user's.
    const today = page
      .getByRole('table', { name: /^Sign-ins per day/ })
      .locator('tbody tr')
      .last();
    await today.waitFor();
    expect((await today.locator('td').last().textContent())?.trim()).toBe('1');
    await screenshot(page, 'dashboard-application.png');
    await expectAccessible(page, 'insights');
    await expectNarrowFit(page, 'insights');
    await page.setViewportSize({ width: 375, height: 800 });
    await screenshot(page, 'dashboard-narrow.png');
    await page.setViewportSize({ width: 1280, height: 720 });

    // Revoking the key ends it at once.
    await page.getByRole('link', { name: 'API keys' }).click();
    await page.getByRole('button', { name: 'Revoke' }).first().click();
    await page.getByRole('dialog').getByRole('button', { name: 'Revoke' }).click();
    await expect.poll(async () => (await byKey()).status).toBe(401);

    // Sign out: the console is signed out, and so is its cookie's session.
    await page.getByRole('button', { name: 'Sign out' }).click();
    await page.getByLabel('Email').waitFor();
    const session = await page.evaluate("fetch('/auth/session').then((answer) => answer.json())");
    expect(session).toEqual({});
    expect((await app.request('GET', '/auth/session', { headers: bearer(token) })).status).toBe(401);
  });
});

describe('the keyboard alone', () => {
  /** Whether `target` has the focus: the page's active element is it (compared by a mark set on it). */
  async function hasFocus(page: Page, target: Locator): Promise<boolean> {
    await target.evaluate((element) => element.setAttribute('data-probe', ''));
    const focused = await page.evaluate('document.activeElement?.hasAttribute("data-probe")');
    await target.evaluate((element) => element.removeAttribute('data-probe'));
    return focused === true;
  }

  /** Presses Tab until `target` has the focus (at most `max` times): it can be reached without a mouse. */
  async function tabTo(page: Page, target: Locator, max = 40) {
    for (let presses = 0; presses < max; presses++) {
      await page.keyboard.press('Tab');
      if (await hasFocus(page, target)) return;
    }
    throw new Error(`${target} was not reached in ${max} presses of Tab`);
  }

  it('signs in and creates an organization and an application', async () => {
    const browser = await launchBrowser();
    onTestFinished(() => browser.close());
    browser.context.setDefaultTimeout(DASHBOARD_WAIT_MS);
    const page = await browser.newPage();
    const email = newEmail();
    await page.goto(world.dashboard);
    await page.getByLabel('Email').waitFor();
    await tabTo(page, page.getByLabel('Email'));
    await page.keyboard.type(email);
    await page.keyboard.press('Enter');
    // The code field takes the focus once the code is sent.
    const code = page.getByLabel('Code');
    await code.waitFor();
    await expect.poll(() => hasFocus(page, code)).toBe(true);
    await page.keyboard.type(await latestCode(email));
    await page.keyboard.press('Enter');
    await page.getByRole('button', { name: 'Sign out' }).waitFor();

    await tabTo(page, page.getByLabel('Name', { exact: true }));
    await page.keyboard.type('Keyboard Inc');
    await page.keyboard.press('Enter');
    const organization = page.getByRole('link', { name: 'Keyboard Inc', exact: true });
    await organization.waitFor();
    await tabTo(page, organization);
    await page.keyboard.press('Enter');
    await page.getByRole('heading', { level: 1, name: 'Keyboard Inc' }).waitFor();
    await tabTo(page, page.getByRole('button', { name: 'New application' }));
    await page.keyboard.press('Enter');
    await tabTo(page, page.getByLabel('Name', { exact: true }));
    await page.keyboard.type('Typed Notes');
    await page.keyboard.press('Enter');
    await page.getByRole('link', { name: 'Typed Notes' }).waitFor();

    const { token } = await signIn(world.app, email);
    const organizations = await manage(world.app, 'GET', '/organizations', { token });
    const created = organizations.body.items.find((item: { name: string }) => item.name === 'Keyboard Inc');
    const applications = await manage(world.app, 'GET', `/organizations/${created.id}/applications`, {
      token,
    });
    expect(applications.body.items.map((item: { name: string }) => item.name)).toEqual(['Typed Notes']);
  });
});

describe('a member', () => {
  it('sees no control the permission matrix refuses, and a crafted call is refused', async () => {
    const { app } = world;
    const owned = await createOwnedApplication(app, 'Member View');
    const member = await addSignedInMember(app, owned.owner.token, owned.organizationId, 'member');
    // A browser of the member's own: another cookie jar.
    const browser = await launchBrowser();
    onTestFinished(() => browser.close());
    browser.context.setDefaultTimeout(DASHBOARD_WAIT_MS);
    const page = await browser.newPage();
    await signInThroughDashboard(page, world, member.email, `/organizations/${owned.organizationId}`);
    await page.getByRole('link', { name: 'Member View' }).waitFor();
    expect(await page.getByRole('button', { name: 'New application' }).count()).toBe(0);
    await expectAccessible(page, 'organization (member)');

    await page.goto(`${world.dashboard}/applications/${owned.applicationId}/keys`);
    await page.getByRole('heading', { level: 1 }).waitFor();
    await page.getByRole('table').first().waitFor();
    expect(await page.getByRole('button', { name: 'New key' }).count()).toBe(0);
    expect(await page.getByRole('button', { name: 'Revoke' }).count()).toBe(0);

    await page.goto(`${world.dashboard}/applications/${owned.applicationId}/configuration`);
    // Read-only: the values, no field to change them, no Save.
    await page.getByText('Official origin').first().waitFor();
    expect(await page.getByLabel('Official origin').count()).toBe(0);
    expect(await page.getByRole('button', { name: 'Save' }).count()).toBe(0);

    // What the console leaves out, the server refuses: the same call, crafted by hand in the page.
    const crafted = await page.evaluate(async (organizationId) => {
      const answer = await fetch(`/application/${organizationId}`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ name: 'Sneaky' }),
      });
      return { status: answer.status, body: await answer.json() };
    }, owned.organizationId);
    expect(crafted).toMatchObject({ status: 403, body: { error: { code: 'FORBIDDEN' } } });
    const applications = await manage(app, 'GET', `/organizations/${owned.organizationId}/applications`, {
      token: owned.owner.token,
    });
    expect(applications.body.items.map((item: { name: string }) => item.name)).toEqual(['Member View']);
  });
});

describe('a page of another origin', () => {
  let attacker: PageServer;
  afterAll(async () => {
    await attacker?.close();
  });

  it('cannot make the console act with its cookie, even from the same site', async () => {
    const { app } = world;
    const email = newEmail();
    const page = await world.browser.newPage();
    await signInThroughDashboard(page, world, email);
    // A second session of the same account: revoke-other-sessions from the attacker would end it.
    const other = await signIn(app, email);
    const before = await manage(app, 'GET', '/organizations', { token: other.token });

    // 127.0.0.1 on another port: another origin, but the same site, so SameSite=Lax sends the cookie.
    attacker = await servePage(
      `<!doctype html><html lang="en"><title>attacker</title><body>
      <form id="f" method="POST" action="${app.url}/auth/revoke-other-sessions"></form>
      <script src="/attack.js"></script></body></html>`,
      {
        '/attack.js': {
          contentType: 'text/javascript',
          body: `
          fetch('${app.url}/organizations', { method: 'POST', mode: 'no-cors', credentials: 'include',
            headers: { 'content-type': 'text/plain' }, body: '{"name":"Evil"}' })
            .catch(() => {})
            .finally(() => document.getElementById('f').submit());`,
        },
      },
    );
    const attackPage = await world.browser.newPage();
    const refused = attackPage.waitForResponse((response) =>
      response.url().endsWith('/auth/revoke-other-sessions'),
    );
    await attackPage.goto(attacker.origin);
    const answer = await refused;
    expect(answer.status()).toBe(403);

    // The other session lives, no organization was made, and the console is still signed in.
    expect((await app.request('GET', '/auth/session', { headers: bearer(other.token) })).status).toBe(200);
    const after = await manage(app, 'GET', '/organizations', { token: other.token });
    expect(after.body.items.length).toBe(before.body.items.length);
    await page.reload();
    await page.getByRole('button', { name: 'Sign out' }).waitFor();
  });
});
