#!/usr/bin/env node
// Makes sure the browser tests have a Chromium (CONTRIBUTING.md, "Tests and benches"): `CHROMIUM_PATH` if set, else Debian's
// /usr/bin/chromium. Only when it runs as root on Debian does it install Debian's chromium with
// apt-get (as CI does), never raising its privileges. Elsewhere it prints how to get a browser and fails.
// Prints nothing when the browser is already there.
import { spawnSync } from 'node:child_process';
import { accessSync, constants, existsSync } from 'node:fs';

const DEBIAN_CHROMIUM = '/usr/bin/chromium';

function executable(path) {
  try {
    accessSync(path, constants.X_OK);
    return true;
  } catch {
    return false;
  }
}

function fail(lines) {
  for (const line of lines) console.error(`ensure-chromium: ${line}`);
  process.exit(1);
}

const HOW_TO = [
  'the browser tests need a Chromium. Either:',
  '  - point CHROMIUM_PATH at a Chromium or Chrome executable (CHROMIUM_PATH=/path/to/chromium npm test), or',
  `  - on Debian, as root: apt-get update && apt-get install -y --no-install-recommends chromium (${DEBIAN_CHROMIUM}).`,
  "This script installs Debian's chromium itself only when it already runs as root on Debian.",
];

const configured = process.env.CHROMIUM_PATH;
if (configured) {
  if (executable(configured)) process.exit(0);
  fail([`CHROMIUM_PATH is set to ${configured}, which is not an executable file.`, ...HOW_TO]);
}
if (executable(DEBIAN_CHROMIUM)) process.exit(0);

const isRoot = typeof process.getuid === 'function' && process.getuid() === 0;
const isDebian = existsSync('/etc/debian_version');
if (!isRoot || !isDebian) {
  fail([
    `CHROMIUM_PATH is not set and ${DEBIAN_CHROMIUM} is missing` +
      (isDebian ? ' (not root: nothing installed).' : ' (not Debian: nothing installed).'),
    ...HOW_TO,
  ]);
}

/** Runs apt-get as this (root) user, streaming its output; exits with a message on failure. */
function aptGet(args) {
  console.error(`ensure-chromium: apt-get ${args.join(' ')}`);
  const result = spawnSync('apt-get', args, {
    stdio: 'inherit',
    env: { ...process.env, DEBIAN_FRONTEND: 'noninteractive' },
  });
  if (result.error || result.status !== 0) {
    const reason = result.error ? result.error.message : `exit status ${result.status ?? result.signal}`;
    fail([`'apt-get ${args.join(' ')}' failed (${reason}).`, ...HOW_TO]);
  }
}

const started = Date.now();
console.error(`ensure-chromium: ${DEBIAN_CHROMIUM} not found; installing Debian's chromium.`);
aptGet(['update']);
aptGet(['install', '-y', '--no-install-recommends', 'chromium']);
if (!executable(DEBIAN_CHROMIUM)) fail([`apt-get succeeded but ${DEBIAN_CHROMIUM} is still missing.`]);
console.error(`ensure-chromium: installed in ${((Date.now() - started) / 1000).toFixed(1)} s.`);
