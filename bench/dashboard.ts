/**
 * `npm run bench -- dashboard [--rounds=N]`: the owner dashboard (docs/dashboard.md) as Chromium loads
 * it from the real service: the gzipped JavaScript and CSS each screen transfers beside its budget
 * (60 KB for the sign-in screen, 100 KB for the application's insights, the screen with the chart),
 * and the time from navigation to the sign-in form being interactive beside a blank page's time to
 * its load event, in interleaved rounds on a fresh, uncached tab each.
 */
import { randomBytes } from 'node:crypto';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { chromium, type Page } from 'playwright-core';
import { loadConfig } from '../shared/config.ts';
import { inMemoryCodeHasher } from '../shared/crypto/local-code-key.ts';
import { LocalSecretSealer } from '../shared/crypto/local-secret-sealer.ts';
import { generateLocalKeyPem, LocalSigner } from '../shared/crypto/local-signer.ts';
import { createDeps } from '../shared/deps.ts';
import { ensureTable } from '../shared/local/create-table.ts';
import { startDynamoDbLocal } from '../shared/local/dynamodb-local.ts';
import { freePort } from '../shared/local/ports.ts';
import { startServer } from '../shared/local/server.ts';
import { startSesLocal } from '../shared/local/ses-local.ts';
import { createLogger } from '../shared/log.ts';
import type { Benchmark } from './types.ts';

const KB = 1024;
const BUDGETS = { signIn: 60 * KB, insights: 100 * KB } as const;
const CHROMIUM = process.env.CHROMIUM_PATH || '/usr/bin/chromium';

/** Bytes on the wire (gzipped bodies and their headers) of every script and style sheet `go` loads. */
async function transferred(page: Page, go: () => Promise<void>): Promise<{ js: number; css: number }> {
  const cdp = await page.context().newCDPSession(page);
  await cdp.send('Network.enable');
  await cdp.send('Network.setCacheDisabled', { cacheDisabled: true });
  const types = new Map<string, string>();
  const sizes = { js: 0, css: 0 };
  cdp.on('Network.responseReceived', (event) => types.set(event.requestId, event.type));
  cdp.on('Network.loadingFinished', (event) => {
    const type = types.get(event.requestId);
    if (type === 'Script') sizes.js += event.encodedDataLength;
    if (type === 'Stylesheet') sizes.css += event.encodedDataLength;
  });
  await go();
  await page.waitForLoadState('networkidle');
  await cdp.detach();
  return sizes;
}

const median = (values: number[]) => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)] ?? Number.NaN;
};

export const dashboardBenchmark: Benchmark = {
  name: 'dashboard',
  description:
    'Owner dashboard in Chromium: gzipped JS and CSS per screen beside its budget, time to an interactive sign-in form',
  async run(ctx) {
    process.env.AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED = 'true';
    const rounds = Number(ctx.options.rounds ?? 15);
    const dynamo = await startDynamoDbLocal({ port: await freePort() });
    const ses = await startSesLocal({ port: await freePort() });
    const blank = createServer((_, res) => {
      res.writeHead(200, { 'content-type': 'text/html; charset=utf-8', 'cache-control': 'no-store' });
      res.end('<!doctype html><html lang="en"><title>blank</title><main></main></html>');
    });
    await new Promise<void>((resolve) => blank.listen(0, '127.0.0.1', resolve));
    const blankUrl = `http://127.0.0.1:${(blank.address() as AddressInfo).port}/`;
    const browser = await chromium.launch({
      executablePath: CHROMIUM,
      args: [
        '--headless',
        '--no-sandbox',
        '--disable-gpu',
        '--host-resolver-rules=MAP * ~NOTFOUND, EXCLUDE 127.0.0.1',
      ],
    });
    const port = await freePort();
    const table = `bench-dashboard-${Date.now()}`;
    await ensureTable(dynamo.endpoint, table);
    const config = loadConfig({
      TABLE_NAME: table,
      ISSUER: `http://127.0.0.1:${port}`,
      MAIL_FROM: 'no-reply@bench.test',
      DYNAMODB_ENDPOINT: dynamo.endpoint,
      SES_ENDPOINT: ses.endpoint,
      LOG_LEVEL: 'error',
    });
    const deps = createDeps(config, {
      signer: new LocalSigner(generateLocalKeyPem()),
      codeHasher: inMemoryCodeHasher(),
      sealer: new LocalSecretSealer(randomBytes(32)),
      logger: createLogger('error', () => undefined),
    });
    const server = await startServer({ port, deps });
    const base = `http://127.0.0.1:${port}`;
    try {
      // An owner with an application, signed in through the console.
      const context = await browser.newContext();
      const page = await context.newPage();
      const email = `bench-${Date.now()}@example.test`;
      const signIn = await transferred(page, async () => {
        await page.goto(`${base}/dashboard`);
        await page.getByLabel('Email').waitFor();
      });
      await page.getByLabel('Email').fill(email);
      await page.getByRole('button', { name: 'Send code' }).click();
      await page.getByLabel('Code').waitFor();
      const store = (await (await fetch(`${ses.endpoint}/store`)).json()) as {
        emails: { body: { text?: string } }[];
      };
      const code = store.emails.at(-1)?.body.text?.match(/\b[A-Z2-9]{4}-[A-Z2-9]{4}\b/)?.[0] ?? '';
      await page.getByLabel('Code').fill(code);
      await page.getByRole('button', { name: 'Sign in' }).click();
      await page.getByRole('button', { name: 'Sign out' }).waitFor();
      const applicationId = await page.evaluate(async () => {
        const json = { 'content-type': 'application/json' };
        const organizations = (await (await fetch('/organizations')).json()) as { items: { id: string }[] };
        const organizationId = organizations.items[0]?.id ?? '';
        const created = await fetch(`/application/${organizationId}`, {
          method: 'POST',
          headers: json,
          body: JSON.stringify({ name: 'Bench' }),
        });
        return ((await created.json()) as { id: string }).id;
      });
      const insights = await transferred(page, async () => {
        await page.goto(`${base}/dashboard/applications/${applicationId}/insights`);
        await page
          .locator('canvas')
          .first()
          .waitFor({ timeout: 10_000 })
          .catch(() => undefined);
      });
      await context.close();

      const line = (name: string, sizes: { js: number; css: number }, budget: number) =>
        `| ${name} | ${(sizes.js / KB).toFixed(1)} | ${(sizes.css / KB).toFixed(1)} | ${((sizes.js + sizes.css) / KB).toFixed(1)} | ${budget / KB} (${(((sizes.js + sizes.css) / budget) * 100).toFixed(0)}% used) |`;
      console.log('| screen | JS (KiB on the wire) | CSS | total | budget |');
      console.log('|---|--:|--:|--:|---|');
      console.log(line('sign-in', signIn, BUDGETS.signIn));
      console.log(line('application insights (chart)', insights, BUDGETS.insights));

      // Interleaved: a blank page to its load event, the console to an enabled Email field.
      const blankTimes: number[] = [];
      const formTimes: number[] = [];
      for (let round = 0; round < rounds; round++) {
        for (const [times, go] of [
          [blankTimes, (tab: Page) => tab.goto(blankUrl, { waitUntil: 'load' })],
          [
            formTimes,
            (tab: Page) => tab.goto(`${base}/dashboard`).then(() => tab.getByLabel('Email').waitFor()),
          ],
        ] as const) {
          const fresh = await browser.newContext();
          const tab = await fresh.newPage();
          const started = performance.now();
          await go(tab);
          if (times === formTimes) await tab.getByLabel('Email').isEnabled();
          times.push(performance.now() - started);
          await fresh.close();
        }
      }
      console.log('');
      console.log(`| navigation to (${rounds} interleaved rounds, fresh tab each) | median ms | min ms |`);
      console.log('|---|--:|--:|');
      console.log(
        `| blank page, load event | ${median(blankTimes).toFixed(1)} | ${Math.min(...blankTimes).toFixed(1)} |`,
      );
      console.log(
        `| dashboard, sign-in form interactive | ${median(formTimes).toFixed(1)} | ${Math.min(...formTimes).toFixed(1)} |`,
      );
    } finally {
      await browser.close();
      await server.close();
      blank.close();
      await ses.stop();
      await dynamo.stop();
    }
  },
};
