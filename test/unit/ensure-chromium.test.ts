import { spawnSync } from 'node:child_process';
import {
  accessSync,
  chmodSync,
  constants,
  existsSync,
  mkdtempSync,
  readFileSync,
  rmSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';

/**
 * `npm test` runs scripts/ensure-chromium.mjs before vitest; it must never raise its privileges
 * (CONTRIBUTING.md, "Tests and benches"). Each run gets a PATH whose `apt-get` and `apt` only record that they
 * were called; no privilege-raising command is put on it, and the script's source is checked to
 * name none.
 */
const script = fileURLToPath(new URL('../../scripts/ensure-chromium.mjs', import.meta.url));
const packageJson = fileURLToPath(new URL('../../package.json', import.meta.url));
const SHIMS = ['apt-get', 'apt'];
const DEBIAN_CHROMIUM = '/usr/bin/chromium';
const NOBODY = 65534;

function executable(path: string): boolean {
  try {
    accessSync(path, constants.X_OK);
    return true;
  } catch {
    return false;
  }
}

let dir: string;
let calls: string;

beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'doorcode-ensure-chromium-'));
  chmodSync(dir, 0o777);
  calls = join(dir, 'calls.log');
  writeFileSync(calls, '');
  chmodSync(calls, 0o666);
  for (const name of SHIMS) {
    const shim = join(dir, name);
    writeFileSync(shim, `#!/bin/sh\necho "${name} $*" >> '${calls}'\nexit 0\n`);
    chmodSync(shim, 0o755);
  }
});

afterEach(() => rmSync(dir, { recursive: true, force: true }));

function run(env: Record<string, string>, uid?: number) {
  const result = spawnSync(process.execPath, [script], {
    env: { PATH: `${dir}:${dirname(process.execPath)}:/usr/bin:/bin`, ...env },
    encoding: 'utf8',
    ...(uid === undefined ? {} : { uid, gid: uid }),
  });
  return { status: result.status, stderr: result.stderr, calls: readFileSync(calls, 'utf8') };
}

describe('scripts/ensure-chromium.mjs', () => {
  it('accepts an executable CHROMIUM_PATH silently and calls nothing', () => {
    const browser = join(dir, 'my-chromium');
    writeFileSync(browser, '#!/bin/sh\n');
    chmodSync(browser, 0o755);
    const result = run({ CHROMIUM_PATH: browser });
    expect(result).toEqual({ status: 0, stderr: '', calls: '' });
  });

  it('fails on a CHROMIUM_PATH that is not executable, saying how to get a browser, and installs nothing', () => {
    const result = run({ CHROMIUM_PATH: join(dir, 'missing') });
    expect(result.status).toBe(1);
    expect(result.stderr).toContain('CHROMIUM_PATH is set to');
    expect(result.stderr).toContain('CHROMIUM_PATH=/path/to/chromium npm test');
    expect(result.calls).toBe('');
  });

  it('as a user other than root, never calls apt-get', () => {
    const isRoot = process.getuid?.() === 0;
    const result = run({}, isRoot ? NOBODY : undefined);
    expect(result.calls).toBe('');
    if (executable(DEBIAN_CHROMIUM)) {
      expect(result).toMatchObject({ status: 0, stderr: '' });
    } else {
      expect(result.status).toBe(1);
      expect(result.stderr).toContain('nothing installed');
      expect(result.stderr).toContain('CHROMIUM_PATH');
    }
  });

  it('neither the script nor the test command names a privilege-raising command', () => {
    expect(readFileSync(script, 'utf8')).not.toMatch(/\bsudo\b/);
    expect(readFileSync(script, 'utf8')).not.toMatch(/\b(doas|pkexec|su\s)/);
    const scripts = (JSON.parse(readFileSync(packageJson, 'utf8')) as { scripts: Record<string, string> })
      .scripts;
    expect(existsSync(script)).toBe(true);
    expect(scripts.test).toContain('node scripts/ensure-chromium.mjs');
    expect(Object.values(scripts).join('\n')).not.toMatch(/\bsudo\b/);
  });
});
