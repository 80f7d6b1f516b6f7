/**
 * The owner dashboard in headless Chromium (docs/dashboard.md): the real service on 127.0.0.1 with
 * that origin as its ISSUER (the console is one of the service's own pages, so its origin is a
 * platform origin), a fresh browser profile, sign-in through the console's own form with the code
 * from the local inbox, and axe-core over whatever screen is showing.
 */
import { createRequire } from 'node:module';
import type { Page } from 'playwright-core';
import { expect } from 'vitest';
import { freePort } from '../../shared/local/ports.ts';
import { startTestApp, type TestApp, type TestAppOptions } from './app.ts';
import { launchBrowser, type TestBrowser } from './browser.ts';
import { latestCode } from './inbox.ts';

/** How long a step of a dashboard test waits for the page: a screen appears in well under a second. */
export const DASHBOARD_WAIT_MS = 10_000;

export interface DashboardWorld {
  readonly app: TestApp;
  readonly browser: TestBrowser;
  /** The console's address: `<service>/dashboard`. */
  readonly dashboard: string;
  close(): Promise<void>;
}

/** The service (with `options.env`) and a browser, the console at the service's own origin. */
export async function startDashboard(options: TestAppOptions = {}): Promise<DashboardWorld> {
  const port = await freePort();
  const app = await startTestApp({
    // The console shows the statistics as an owner sees them: read from the stream as npm start does.
    statistics: true,
    aggregateEveryMs: 500,
    ...options,
    port,
    env: { ISSUER: `http://127.0.0.1:${port}`, ...options.env },
  });
  let browser: TestBrowser;
  try {
    browser = await launchBrowser();
    // A wait that fails says what it waited for, well inside the test's own timeout.
    browser.context.setDefaultTimeout(DASHBOARD_WAIT_MS);
  } catch (error) {
    await app.close();
    throw error;
  }
  return {
    app,
    browser,
    dashboard: `${app.url}/dashboard`,
    close: async () => {
      try {
        await browser.close();
      } finally {
        await app.close();
      }
    },
  };
}

/**
 * Signs `email` in through the console's sign-in screen: Email, Send code, the code from the inbox,
 * Code, Sign in. Leaves the page on the screen the console goes to after (`path`, else the
 * organizations), with the header's Sign out showing.
 */
export async function signInThroughDashboard(
  page: Page,
  world: DashboardWorld,
  email: string,
  path = '',
): Promise<void> {
  await page.goto(`${world.dashboard}${path}`);
  await page.getByLabel('Email').fill(email);
  await page.getByRole('button', { name: 'Send code' }).click();
  await page.getByText('Check that your email shows the same two words').waitFor();
  await page.getByLabel('Code').fill(await latestCode(email));
  await page.getByRole('button', { name: 'Sign in' }).click();
  await page.getByRole('button', { name: 'Sign out' }).waitFor();
  // The header shows Sign out as the session arrives; the console then moves on from the sign-in
  // screen (or its bare address) to the screen asked for (dashboard/src/app.tsx).
  await page.waitForURL((url) => url.pathname !== '/dashboard/sign-in' && url.pathname !== '/dashboard');
}

const axeSource = (): string => {
  const require = createRequire(import.meta.url);
  return (require('axe-core') as { source: string }).source;
};
let axe: string | undefined;

interface AxeViolation {
  id: string;
  impact: string | null;
  help: string;
  nodes: { target: unknown[] }[];
}

/**
 * axe-core over the page as it is (WCAG 2.x A and AA rules and best practices): no serious or
 * critical violation. Evaluated through the DevTools protocol, which the page's CSP does not govern;
 * the page itself still runs under its CSP. Also: one `main` landmark and one `h1`.
 */
export async function expectAccessible(page: Page, screen: string): Promise<void> {
  axe ??= axeSource();
  await page.evaluate(axe);
  // A string runs in the page (this file is compiled without the DOM's types).
  const violations = (await page.evaluate(
    'axe.run(document).then((result) => result.violations)',
  )) as AxeViolation[];
  const serious = violations
    .filter((violation) => violation.impact === 'serious' || violation.impact === 'critical')
    .map(
      (violation) =>
        `${violation.id} (${violation.impact}): ${violation.help} at ${JSON.stringify(violation.nodes.map((node) => node.target))}`,
    );
  expect(serious, `axe on ${screen}`).toEqual([]);
  expect(await page.locator('main').count(), `main landmarks on ${screen}`).toBe(1);
  expect(await page.locator('h1').count(), `h1 on ${screen}`).toBe(1);
}

/**
 * The screen fits 375 px wide: nothing scrolls sideways but a table inside its own box, and axe finds
 * nothing serious at that width either (a box that scrolls must be reachable by keyboard). The viewport
 * is put back after.
 */
export async function expectNarrowFit(page: Page, screen: string): Promise<void> {
  const before = page.viewportSize();
  await page.setViewportSize({ width: 375, height: 800 });
  try {
    const width = (await page.evaluate('document.documentElement.scrollWidth')) as number;
    expect(width, `${screen} at 375 px`).toBeLessThanOrEqual(375);
    // The boxes measure themselves on resize (ResizeObserver): let them.
    await page.evaluate(
      'new Promise((resolve) => requestAnimationFrame(() => requestAnimationFrame(resolve)))',
    );
    await expectAccessible(page, `${screen} at 375 px`);
  } finally {
    if (before) await page.setViewportSize(before);
  }
}
