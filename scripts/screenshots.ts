/**
 * `npm run docs:screenshots`: writes docs/images/oauth-sign-in.png, docs/images/oauth-consent.png and
 * docs/images/bridge-recent-accounts.png (the sign-in page with two recent accounts) by driving the
 * OAuth sign-in bridge and consent page in headless Chromium, and docs/images/social-sign-in.png (an
 * application's social sign-in page with two recent accounts), and the owner dashboard's sign-in,
 * insights and impersonation screens (docs/images/dashboard-*.png). The flows are the browser tests'
 * (test/browser/oauth-pages.test.ts, test/browser/social-sign-in.test.ts,
 * test/browser/dashboard-journey.test.ts), run through vitest for
 * its local DynamoDB, SES emulator and OpenID Connect provider, with `DOORCODE_SCREENSHOTS` telling
 * them where to save the pages.
 */
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { join, resolve } from 'node:path';

const root = resolve(import.meta.dirname, '..');
const images = join(root, 'docs', 'images');
const tests = [
  'test/browser/oauth-pages.test.ts',
  'test/browser/social-sign-in.test.ts',
  'test/browser/dashboard-journey.test.ts',
];
const run = spawnSync('npx', ['vitest', 'run', ...tests], {
  cwd: root,
  stdio: 'inherit',
  env: { ...process.env, DOORCODE_SCREENSHOTS: images },
});
if (run.status !== 0) process.exit(run.status ?? 1);
const names = [
  'oauth-sign-in.png',
  'oauth-consent.png',
  'bridge-recent-accounts.png',
  'social-sign-in.png',
  'dashboard-sign-in.png',
  'dashboard-application.png',
  'dashboard-impersonation.png',
  'dashboard-narrow.png',
];
for (const name of names) {
  if (!existsSync(join(images, name))) {
    console.error(`${name} was not written`);
    process.exit(1);
  }
}
console.log(`wrote ${names.map((name) => join(images, name)).join(', ')}`);
