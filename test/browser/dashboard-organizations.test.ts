/**
 * The console's organization, application and API key screens (docs/dashboard.md), driven in
 * Chromium against the real service: an owner builds an organization up to its plan's cap and uses
 * a key made on screen; a member invited on screen accepts in a browser of its own and is shown
 * none of the controls the permission matrix refuses it, and an admin none over the owner
 * (docs/api.md "Permission matrix").
 */
import type { Locator, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launchBrowser, type TestBrowser } from '../support/browser.ts';
import {
  type DashboardWorld,
  expectAccessible,
  expectNarrowFit,
  signInThroughDashboard,
  startDashboard,
} from '../support/dashboard.ts';
import { bearer, newEmail, signIn } from '../support/sign-in.ts';
import { addSignedInMember } from '../support/tenancy.ts';

let world: DashboardWorld;
let memberBrowser: TestBrowser | undefined;
beforeAll(async () => {
  world = await startDashboard();
});
afterAll(async () => {
  await memberBrowser?.close();
  await world?.close();
});

const ownerEmail = newEmail();
const memberEmail = newEmail();
const ORGANIZATION = 'Acme Robotics';
let owner: Page;
let organizationId = '';
let applicationId = '';
let ownerToken: string | undefined;

/** A platform session token of the owner through the API, to read what the console changed. */
async function ownerSession(): Promise<string> {
  ownerToken ??= (await signIn(world.app, ownerEmail)).token;
  return ownerToken;
}
const ownerBearer = async () => bearer(await ownerSession());

/** The text of the element `locator`'s `aria-describedby` names: what tells its row's button apart. */
async function description(page: Page, locator: Locator): Promise<string> {
  const id = (await locator.getAttribute('aria-describedby')) ?? '';
  expect(id).not.toBe('');
  return (await page.locator(`[id="${id}"]`).textContent()) ?? '';
}

/** The id at the end of the page's path (`/dashboard/organizations/org_…`). */
const lastSegment = (page: Page): string =>
  decodeURIComponent(new URL(page.url()).pathname.split('/').pop() ?? '');

/** A `GET /applications/{id}` made with `key` alone, as a customer's server would. */
const readWithKey = (key: string) =>
  fetch(`${world.app.url}/applications/${applicationId}`, { headers: { 'x-api-key': key } });

async function newApplication(page: Page, name: string): Promise<void> {
  await page.getByRole('button', { name: 'New application' }).click();
  const form = page.getByRole('form', { name: 'New application' });
  await form.getByLabel('Name', { exact: true }).fill(name);
  await form.getByRole('button', { name: 'Create', exact: true }).click();
}

async function newKey(page: Page, type: 'Public' | 'Secret'): Promise<string> {
  await page.getByRole('button', { name: 'New key' }).click();
  await page.getByRole('group', { name: 'Type' }).getByLabel(type).check();
  await page
    .getByRole('form', { name: 'New key' })
    .getByRole('button', { name: 'Create', exact: true })
    .click();
  await page.getByRole('heading', { name: `Your new ${type.toLowerCase()} key` }).waitFor();
  return (await page.locator('.secret').textContent()) ?? '';
}

describe('dashboard organizations, applications and keys', () => {
  it('lets an owner create an organization, an application and a key that works until revoked', async () => {
    owner = await world.browser.newPage();
    await signInThroughDashboard(owner, world, ownerEmail);
    await owner.getByRole('heading', { name: 'Your organizations' }).waitFor();
    await expectAccessible(owner, 'organizations');

    await owner.getByLabel('Name', { exact: true }).fill('Acme Robo');
    await owner.getByRole('button', { name: 'Create organization' }).click();
    await owner.getByRole('status').filter({ hasText: 'Organization Acme Robo created.' }).waitFor();
    await owner.getByRole('link', { name: 'Acme Robo' }).click();
    await owner.getByRole('heading', { level: 1, name: 'Acme Robo' }).waitFor();
    organizationId = lastSegment(owner);
    await expectAccessible(owner, 'organization');
    await owner.getByLabel('Rename to').fill(ORGANIZATION);
    await owner.getByRole('button', { name: 'Rename organization' }).click();
    await owner
      .getByRole('status')
      .filter({ hasText: `Organization renamed to ${ORGANIZATION}.` })
      .waitFor();
    await owner.getByRole('heading', { level: 1, name: ORGANIZATION }).waitFor();

    await newApplication(owner, 'Acme Notes');
    await owner.getByRole('status').filter({ hasText: 'Application Acme Notes created.' }).waitFor();
    await owner.getByText('1 of 3 applications').waitFor();
    await owner.getByRole('link', { name: 'Acme Notes' }).click();
    await owner.getByRole('heading', { level: 1, name: 'Acme Notes' }).waitFor();
    applicationId = lastSegment(owner);
    expect(applicationId).toMatch(/^app_/);
    await expectAccessible(owner, 'application');

    // A refused field shows the API's message beside it; then the rename goes through.
    await owner.getByLabel('Name', { exact: true }).fill('Acme Notebook');
    await owner.getByLabel('Primary colour').fill('blue');
    await owner.getByRole('button', { name: 'Save', exact: true }).click();
    await owner.locator('.field-error').filter({ hasText: 'a colour is #rrggbb' }).waitFor();
    await expect(owner.getByLabel('Primary colour').getAttribute('aria-invalid')).resolves.toBe('true');
    await owner.getByLabel('Primary colour').fill('#123456');
    await owner.getByRole('button', { name: 'Save', exact: true }).click();
    await owner.getByRole('status').filter({ hasText: 'Application saved.' }).waitFor();
    await owner.getByRole('heading', { level: 1, name: 'Acme Notebook' }).waitFor();

    await owner.getByRole('link', { name: 'API keys' }).click();
    await owner.getByRole('heading', { level: 1, name: 'API keys of Acme Notebook' }).waitFor();
    await owner.getByText('This application has no key yet.').waitFor();
    const secret = await newKey(owner, 'Secret');
    expect(secret).toMatch(/^sk_/);
    await owner.getByText('it will not be shown again').waitFor();
    await expectAccessible(owner, 'keys');

    const read = await readWithKey(secret);
    expect(read.status).toBe(200);
    expect(((await read.json()) as { name: string; branding: unknown }).name).toBe('Acme Notebook');

    // A public key stays active, for the member to see later.
    expect(await newKey(owner, 'Public')).toMatch(/^pu_/);

    const revoke = owner
      .getByRole('row')
      .filter({ hasText: secret.slice(0, 7) })
      .getByRole('button', { name: 'Revoke' });
    // "Revoke" on every row; the key's prefix describes which.
    expect(await description(owner, revoke)).toContain(secret.slice(0, 7));
    await revoke.click();
    await owner.getByRole('dialog').getByRole('button', { name: 'Revoke key' }).click();
    await owner
      .getByRole('status')
      .filter({ hasText: `Key ${secret.slice(0, 7)}… revoked.` })
      .waitFor();
    expect((await readWithKey(secret)).status).toBe(401);

    await expectNarrowFit(owner, 'keys');
  }, 45_000);

  it('shows an error the API answers, and Try again loads the list once it works', async () => {
    const keys = `${world.dashboard}/applications/${applicationId}/keys`;
    const failing = '**/applications/*/api-keys';
    await owner.route(failing, (route) =>
      route.fulfill({
        status: 500,
        contentType: 'application/json',
        body: JSON.stringify({ error: { code: 'INTERNAL_ERROR', message: 'Something broke' } }),
      }),
    );
    try {
      await owner.goto(keys);
      const alert = owner.getByRole('alert').filter({ hasText: 'Something broke' });
      await alert.waitFor();
      expect(await alert.textContent()).toContain('INTERNAL_ERROR');
      expect(await owner.getByRole('table').count()).toBe(0);
      await owner.getByRole('heading', { level: 1, name: 'API keys of Acme Notebook' }).waitFor();
      await expectAccessible(owner, 'keys, error');
    } finally {
      await owner.unroute(failing);
    }
    await owner.getByRole('button', { name: 'Try again' }).click();
    await owner.getByRole('table').waitFor();
    expect(await owner.getByRole('alert').count()).toBe(0);
    expect(await owner.getByRole('row').filter({ hasText: 'pu_' }).count()).toBe(1);
  });

  it('moves back and forward between screens, each with its own h1', async () => {
    const keysTitle = owner.getByRole('heading', { level: 1, name: 'API keys of Acme Notebook' });
    const overviewTitle = owner.getByRole('heading', { level: 1, name: 'Acme Notebook', exact: true });
    await keysTitle.waitFor();
    await owner.getByRole('navigation', { name: 'Sections' }).getByRole('link', { name: 'Overview' }).click();
    await overviewTitle.waitFor();
    expect(new URL(owner.url()).pathname).toBe(`/dashboard/applications/${applicationId}`);

    await owner.goBack();
    await keysTitle.waitFor();
    expect(new URL(owner.url()).pathname).toBe(`/dashboard/applications/${applicationId}/keys`);
    expect(await overviewTitle.count()).toBe(0);
    await owner.getByRole('table').waitFor();

    await owner.goForward();
    await overviewTitle.waitFor();
    expect(new URL(owner.url()).pathname).toBe(`/dashboard/applications/${applicationId}`);
    expect(await keysTitle.count()).toBe(0);
    await expectAccessible(owner, 'application, after back and forward');
  });

  it('shows the plan cap and the refusal of one application too many', async () => {
    await owner
      .getByRole('navigation', { name: 'Breadcrumb' })
      .getByRole('link', { name: ORGANIZATION })
      .click();
    await owner.getByRole('heading', { level: 1, name: ORGANIZATION }).waitFor();
    await newApplication(owner, 'Acme Two');
    await owner.getByRole('status').filter({ hasText: 'Application Acme Two created.' }).waitFor();
    await newApplication(owner, 'Acme Three');
    await owner.getByRole('status').filter({ hasText: 'Application Acme Three created.' }).waitFor();
    await owner.getByText('3 of 3 applications').waitFor();
    await owner.getByText('a new one will be refused').waitFor();

    await newApplication(owner, 'Acme Four');
    const refusal = owner.getByRole('form', { name: 'New application' }).getByRole('alert');
    await refusal.waitFor();
    expect(await refusal.textContent()).toContain('The free plan allows 3 applications per organization');
    expect(await refusal.textContent()).toContain('PLAN_LIMIT_REACHED');

    // The owner cannot delete an organization that holds applications: the API's message says why.
    await owner.getByRole('button', { name: 'Delete organization' }).click();
    const dialog = owner.getByRole('dialog');
    await dialog.getByLabel(`Type ${ORGANIZATION} to confirm`).fill(ORGANIZATION);
    await dialog.getByRole('button', { name: 'Delete organization' }).click();
    await dialog.getByRole('alert').filter({ hasText: 'ORGANIZATION_NOT_EMPTY' }).waitFor();
    await dialog.getByRole('button', { name: 'Cancel' }).click();

    const organization = await world.app.request('GET', `/organizations/${organizationId}`, {
      headers: await ownerBearer(),
    });
    expect(organization.body).toMatchObject({ name: ORGANIZATION, usage: { applications: 3 } });
    await expectNarrowFit(owner, 'organization');
  }, 30_000);

  it('shows the refusals of an eleventh organization and a twenty-first key', async () => {
    const headers = await ownerBearer();
    // The first sign-in's organization and Acme Robotics make 2 of the 10 an account may create.
    for (let n = 3; n <= 10; n++) {
      const created = await world.app.request('POST', '/organizations', {
        headers,
        body: { name: `Spare ${n}` },
      });
      expect(created.status).toBe(201);
    }
    await owner.getByRole('link', { name: 'Organizations' }).first().click();
    await owner.getByRole('link', { name: 'Spare 10' }).waitFor();
    await owner.getByLabel('Name', { exact: true }).fill('One too many');
    await owner.getByRole('button', { name: 'Create organization' }).click();
    await owner.getByRole('alert').filter({ hasText: 'ORGANIZATION_LIMIT_REACHED' }).waitFor();
    expect(await owner.getByRole('link', { name: 'One too many' }).count()).toBe(0);

    // The public key made on screen is active: 19 more make the 20 an application may hold.
    for (let n = 0; n < 19; n++) {
      const created = await world.app.request('POST', '/api-keys', {
        headers,
        body: { applicationId, type: 'public' },
      });
      expect(created.status).toBe(201);
    }
    await owner.goto(`${world.dashboard}/applications/${applicationId}/keys`);
    await owner.getByRole('button', { name: 'New key' }).click();
    await owner.getByRole('group', { name: 'Type' }).getByLabel('Secret').check();
    await owner
      .getByRole('form', { name: 'New key' })
      .getByRole('button', { name: 'Create', exact: true })
      .click();
    await owner
      .getByRole('form', { name: 'New key' })
      .getByRole('alert')
      .filter({ hasText: 'API_KEY_LIMIT_REACHED' })
      .waitFor();
    expect(await owner.getByRole('heading', { name: 'Your new secret key' }).count()).toBe(0);
  }, 30_000);

  it('lets a member invited on screen accept, and shows it no control its role may not use', async () => {
    await owner.goto(`${world.dashboard}/organizations/${organizationId}`);
    await owner.getByRole('navigation', { name: 'Sections' }).getByRole('link', { name: 'Members' }).click();
    await owner.getByRole('heading', { level: 1, name: `Members of ${ORGANIZATION}` }).waitFor();
    // The only owner cannot leave: the API's message says so in the dialog.
    await owner.getByRole('button', { name: 'Leave organization' }).click();
    await owner.getByRole('dialog').getByRole('button', { name: 'Leave', exact: true }).click();
    await owner.getByRole('dialog').getByRole('alert').filter({ hasText: 'LAST_OWNER' }).waitFor();
    await owner.getByRole('dialog').getByRole('button', { name: 'Cancel' }).click();

    await owner.getByLabel('Email', { exact: true }).fill(memberEmail);
    await owner.getByLabel('Role', { exact: true }).selectOption('member');
    await owner.getByRole('button', { name: 'Invite', exact: true }).click();
    await owner
      .getByRole('status')
      .filter({ hasText: `Invitation sent to ${memberEmail}.` })
      .waitFor();
    const revokeInvitation = owner
      .getByRole('row')
      .filter({ hasText: memberEmail })
      .getByRole('button', { name: 'Revoke' });
    await revokeInvitation.waitFor();
    expect(await description(owner, revokeInvitation)).toBe(memberEmail);
    await expectAccessible(owner, 'members');
    await expectNarrowFit(owner, 'members');

    memberBrowser = await launchBrowser();
    const member = await memberBrowser.newPage();
    await signInThroughDashboard(member, world, memberEmail);
    const invitation = member.getByRole('row').filter({ hasText: ORGANIZATION });
    const accept = invitation.getByRole('button', { name: 'Accept' });
    expect(await description(member, accept)).toBe(ORGANIZATION);
    expect(await description(member, invitation.getByRole('button', { name: 'Decline' }))).toBe(ORGANIZATION);
    await accept.click();
    await member
      .getByRole('status')
      .filter({ hasText: `You joined ${ORGANIZATION}.` })
      .waitFor();
    await member.getByText('No invitation is waiting for you.').waitFor();
    await member.getByRole('link', { name: ORGANIZATION }).click();
    await member.getByRole('heading', { level: 1, name: ORGANIZATION }).waitFor();
    await member.getByRole('link', { name: 'Acme Notebook' }).waitFor();
    for (const name of ['New application', 'Rename organization', 'Delete organization']) {
      expect(await member.getByRole('button', { name }).count(), name).toBe(0);
    }

    await member.getByRole('link', { name: 'Acme Notebook' }).click();
    await member.getByRole('heading', { level: 1, name: 'Acme Notebook' }).waitFor();
    for (const name of ['Save', 'Delete application']) {
      expect(await member.getByRole('button', { name }).count(), name).toBe(0);
    }
    await member.getByRole('link', { name: 'API keys' }).click();
    await member.getByRole('cell', { name: 'Active' }).first().waitFor();
    for (const name of ['New key', 'Revoke']) {
      expect(await member.getByRole('button', { name }).count(), name).toBe(0);
    }

    const members = await world.app.request('GET', `/organizations/${organizationId}/members`, {
      headers: await ownerBearer(),
    });
    expect(members.body.items).toContainEqual(
      expect.objectContaining({ email: memberEmail, role: 'member' }),
    );
  }, 45_000);

  it("shows an admin no control over the owner, and its controls over a member's row", async () => {
    const admin = await addSignedInMember(world.app, await ownerSession(), organizationId, 'admin');
    const page = await memberBrowser?.newPage();
    if (!page) throw new Error('the member test opens the second browser');
    // The member's browser, signed out: the admin signs in there and lands on the members screen.
    await page.goto(`${world.dashboard}/organizations`);
    await page.getByRole('button', { name: 'Sign out' }).click();
    await page.getByLabel('Email').waitFor();
    await signInThroughDashboard(page, world, admin.email, `/organizations/${organizationId}/members`);
    await page.getByRole('heading', { level: 1, name: `Members of ${ORGANIZATION}` }).waitFor();

    const ownerRow = page.getByRole('row').filter({ hasText: ownerEmail });
    await ownerRow.getByRole('cell', { name: 'Owner', exact: true }).waitFor();
    for (const name of ['Remove', 'Change role']) {
      expect(await ownerRow.getByRole('button', { name }).count(), `${name} on the owner's row`).toBe(0);
    }
    expect(await ownerRow.getByRole('combobox').count()).toBe(0);

    const memberRow = page.getByRole('row').filter({ hasText: memberEmail });
    const remove = memberRow.getByRole('button', { name: 'Remove' });
    const changeRole = memberRow.getByRole('button', { name: 'Change role' });
    await remove.waitFor();
    await changeRole.waitFor();
    expect(await description(page, remove)).toBe(memberEmail);
    expect(await description(page, changeRole)).toBe(memberEmail);
    expect(await memberRow.getByRole('combobox', { name: `Role of ${memberEmail}` }).count()).toBe(1);
    // The admin may grant at most its own rank: no Owner among the member's roles.
    expect(await memberRow.getByRole('option', { name: 'Owner' }).count()).toBe(0);
    await expectAccessible(page, 'members, as an admin');
    await expectNarrowFit(page, 'members, as an admin');
    await page.close();
  }, 30_000);
});
