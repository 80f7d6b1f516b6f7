#!/usr/bin/env node
// Makes sure Debian's Chromium is present for the browser tests (DESIGN.md §4): when
// /usr/bin/chromium is missing, installs it with apt-get. Prints nothing when it is already there.
import { spawnSync } from 'node:child_process';
import { accessSync, constants, existsSync } from 'node:fs';

const CHROMIUM = '/usr/bin/chromium';

if (existsSync(CHROMIUM)) process.exit(0);

const isRoot = typeof process.getuid === 'function' && process.getuid() === 0;
const hasSudo = ['/usr/bin/sudo', '/bin/sudo'].some((path) => {
  try {
    accessSync(path, constants.X_OK);
    return true;
  } catch {
    return false;
  }
});
if (!isRoot && !hasSudo) {
  console.error(
    `ensure-chromium: ${CHROMIUM} is missing and this user can neither run apt-get as root nor use sudo.\n` +
      'Install it yourself: apt-get update && apt-get install -y --no-install-recommends chromium',
  );
  process.exit(1);
}

/** Runs apt-get (through sudo when not root), streaming its output; exits with a message on failure. */
function aptGet(args) {
  const [command, argv] = isRoot ? ['apt-get', args] : ['sudo', ['apt-get', ...args]];
  console.error(`ensure-chromium: ${[command, ...argv].join(' ')}`);
  const result = spawnSync(command, argv, {
    stdio: 'inherit',
    env: { ...process.env, DEBIAN_FRONTEND: 'noninteractive' },
  });
  if (result.error || result.status !== 0) {
    const reason = result.error ? result.error.message : `exit status ${result.status ?? result.signal}`;
    console.error(`ensure-chromium: '${[command, ...argv].join(' ')}' failed (${reason}).`);
    console.error(`ensure-chromium: the browser tests need Debian's chromium at ${CHROMIUM}.`);
    process.exit(1);
  }
}

const started = Date.now();
console.error(`ensure-chromium: ${CHROMIUM} not found; installing Debian's chromium.`);
aptGet(['update']);
aptGet(['install', '-y', '--no-install-recommends', 'chromium']);
if (!existsSync(CHROMIUM)) {
  console.error(`ensure-chromium: apt-get succeeded but ${CHROMIUM} is still missing.`);
  process.exit(1);
}
console.error(`ensure-chromium: installed in ${((Date.now() - started) / 1000).toFixed(1)} s.`);
